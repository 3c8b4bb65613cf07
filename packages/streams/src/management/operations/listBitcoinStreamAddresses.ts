import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import {
  bitcoinStreamAddressPageSchema,
  bitcoinStreamIdSchema,
  cursorSchema,
  pageLimitSchema,
} from '../schemas.js';

export const listBitcoinStreamAddressesInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  limit: pageLimitSchema.optional(),
  cursor: cursorSchema.optional(),
});
export type ListBitcoinStreamAddressesInput = z.input<typeof listBitcoinStreamAddressesInput>;

export const listBitcoinStreamAddressesOperation = defineOperation({
  id: 'listBitcoinStreamAddresses',
  summary: 'List the addresses a Bitcoin stream watches',
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}/address',
  input: listBitcoinStreamAddressesInput,
  fields: { id: 'path', limit: 'query', cursor: 'query' },
  response: bitcoinStreamAddressPageSchema,
  idempotent: true,
});

/** Lists the addresses a Bitcoin stream watches (one page; pass `cursor` for the next). */
export function listBitcoinStreamAddresses(
  client: Client,
  input: ListBitcoinStreamAddressesInput,
  options?: CallOptions,
) {
  return runOperation(client, listBitcoinStreamAddressesOperation, input, options);
}
