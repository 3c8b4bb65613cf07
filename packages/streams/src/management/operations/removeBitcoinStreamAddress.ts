import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { anyResponseSchema, bitcoinStreamIdSchema } from '../schemas.js';
import { singleBitcoinAddressSchema } from './addBitcoinStreamAddress.js';

export const removeBitcoinStreamAddressInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  address: singleBitcoinAddressSchema,
});
export type RemoveBitcoinStreamAddressInput = z.input<typeof removeBitcoinStreamAddressInput>;

export const removeBitcoinStreamAddressOperation = defineOperation({
  id: 'removeBitcoinStreamAddress',
  summary: 'Stop a Bitcoin stream watching an address',
  api: 'streams',
  method: 'DELETE',
  path: '/streams/bitcoin/{id}/address',
  input: removeBitcoinStreamAddressInput,
  // The address travels in the body of the DELETE, as `{ address }`.
  fields: { id: 'path', address: 'body' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  idempotent: false,
});

/** Removes one address from a Bitcoin stream. */
export function removeBitcoinStreamAddress(
  client: Client,
  input: RemoveBitcoinStreamAddressInput,
  options?: CallOptions,
) {
  return runOperation(client, removeBitcoinStreamAddressOperation, input, options);
}
