import { defineEndpoint, nonEmptyString, withMeta } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, EXAMPLE_XPUB_ID, exampleXpub } from '../examples.js';
import { bitcoinStreamIdSchema, bitcoinStreamXpubChangeSchema } from '../schemas.js';

export const removeBitcoinStreamXpubInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  // Its format is not shown in the spec.
  xpubId: withMeta(nonEmptyString, {
    title: 'Xpub ID',
    description: 'The id Get Xpubs reports for the xpub (not the xpub itself).',
    examples: [EXAMPLE_XPUB_ID],
  }),
});
export type RemoveBitcoinStreamXpubInput = z.input<typeof removeBitcoinStreamXpubInput>;

export const removeBitcoinStreamXpubEndpoint = defineEndpoint({
  id: 'removeBitcoinStreamXpub',
  resource: 'bitcoinStream',
  action: 'removeXpub',
  displayName: 'Remove Xpub',
  summary: 'Detach an extended public key from a Bitcoin stream',
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID, xpubId: EXAMPLE_XPUB_ID },
      response: exampleXpub,
    },
  ],
  api: 'streams',
  method: 'DELETE',
  path: '/streams/bitcoin/{id}/xpub/{xpubId}',
  input: removeBitcoinStreamXpubInput,
  fields: { id: 'path', xpubId: 'path' },
  response: bitcoinStreamXpubChangeSchema,
  idempotent: false,
});

/** Detaches an xpub from a Bitcoin stream, by the `id` listBitcoinStreamXpubs reports for it. */
export const removeBitcoinStreamXpub = removeBitcoinStreamXpubEndpoint.call;
