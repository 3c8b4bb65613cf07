import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { extendedPublicKeySchema } from '../bitcoin-address.js';
import { EXAMPLE_STREAM_ID, EXAMPLE_ZPUB, exampleXpub } from '../examples.js';
import { bitcoinStreamIdSchema, bitcoinStreamXpubChangeSchema } from '../schemas.js';

export const addBitcoinStreamXpubInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  xpub: extendedPublicKeySchema,
});
export type AddBitcoinStreamXpubInput = z.input<typeof addBitcoinStreamXpubInput>;

export const addBitcoinStreamXpubEndpoint = defineEndpoint({
  id: 'addBitcoinStreamXpub',
  resource: 'bitcoinStream',
  action: 'addXpub',
  displayName: 'Add Xpub',
  summary: 'Attach an extended public key to a Bitcoin stream; its addresses are derived and watched',
  examples: [
    {
      input: {
        id: EXAMPLE_STREAM_ID,
        xpub: EXAMPLE_ZPUB,
      },
      response: exampleXpub,
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/xpub',
  input: addBitcoinStreamXpubInput,
  fields: { id: 'path', xpub: 'body' },
  response: bitcoinStreamXpubChangeSchema,
  idempotent: false,
});

/** Attaches a mainnet xpub, ypub or zpub (checked before sending) to a Bitcoin stream. */
export const addBitcoinStreamXpub = addBitcoinStreamXpubEndpoint.call;
