import {
  type CallOptions,
  type Client,
  defineOperation,
  nonEmptyString,
  runOperation,
} from '@blockwire/core';
import { z } from 'zod/v4';
import { anyResponseSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const removeBitcoinStreamXpubInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  // The record id from listBitcoinStreamXpubs; its format is not shown in the spec.
  xpubId: nonEmptyString,
});
export type RemoveBitcoinStreamXpubInput = z.input<typeof removeBitcoinStreamXpubInput>;

export const removeBitcoinStreamXpubOperation = defineOperation({
  id: 'removeBitcoinStreamXpub',
  summary: 'Detach an extended public key from a Bitcoin stream',
  api: 'streams',
  method: 'DELETE',
  path: '/streams/bitcoin/{id}/xpub/{xpubId}',
  input: removeBitcoinStreamXpubInput,
  fields: { id: 'path', xpubId: 'path' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  idempotent: false,
});

/** Detaches an xpub from a Bitcoin stream, by the `id` listBitcoinStreamXpubs reports for it. */
export function removeBitcoinStreamXpub(
  client: Client,
  input: RemoveBitcoinStreamXpubInput,
  options?: CallOptions,
) {
  return runOperation(client, removeBitcoinStreamXpubOperation, input, options);
}
