import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { bitcoinAddressSchema } from '../bitcoin-address.js';
import { anyResponseSchema, bitcoinStreamIdSchema } from '../schemas.js';

/** One address: the service takes one per request, so a list is refused with a pointer to the helper. */
export const singleBitcoinAddressSchema = z
  .custom<string>((value) => !Array.isArray(value), {
    error: 'takes one address per request (the service limit); use addBitcoinStreamAddresses to add a list',
  })
  .pipe(bitcoinAddressSchema);

export const addBitcoinStreamAddressInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  address: singleBitcoinAddressSchema,
});
export type AddBitcoinStreamAddressInput = z.input<typeof addBitcoinStreamAddressInput>;

export const addBitcoinStreamAddressOperation = defineOperation({
  id: 'addBitcoinStreamAddress',
  summary: 'Add one address to a Bitcoin stream',
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/address',
  input: addBitcoinStreamAddressInput,
  fields: { id: 'path', address: 'body' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  idempotent: false,
});

/** Adds one Bitcoin mainnet address to a stream (checked before sending). */
export function addBitcoinStreamAddress(
  client: Client,
  input: AddBitcoinStreamAddressInput,
  options?: CallOptions,
) {
  return runOperation(client, addBitcoinStreamAddressOperation, input, options);
}
