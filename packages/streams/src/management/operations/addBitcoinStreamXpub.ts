import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { extendedPublicKeySchema } from '../bitcoin-address.js';
import { anyResponseSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const addBitcoinStreamXpubInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  xpub: extendedPublicKeySchema,
});
export type AddBitcoinStreamXpubInput = z.input<typeof addBitcoinStreamXpubInput>;

export const addBitcoinStreamXpubOperation = defineOperation({
  id: 'addBitcoinStreamXpub',
  summary: 'Attach an extended public key to a Bitcoin stream; its addresses are derived and watched',
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/xpub',
  input: addBitcoinStreamXpubInput,
  fields: { id: 'path', xpub: 'body' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  idempotent: false,
});

/** Attaches a mainnet xpub, ypub or zpub (checked before sending) to a Bitcoin stream. */
export function addBitcoinStreamXpub(
  client: Client,
  input: AddBitcoinStreamXpubInput,
  options?: CallOptions,
) {
  return runOperation(client, addBitcoinStreamXpubOperation, input, options);
}
