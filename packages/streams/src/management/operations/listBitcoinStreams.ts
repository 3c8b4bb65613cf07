import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { bitcoinStreamListSchema, cursorSchema, pageLimitSchema } from '../schemas.js';

export const listBitcoinStreamsInput = z.strictObject({
  limit: pageLimitSchema.optional(),
  cursor: cursorSchema.optional(),
});
export type ListBitcoinStreamsInput = z.input<typeof listBitcoinStreamsInput>;

export const listBitcoinStreamsOperation = defineOperation({
  id: 'listBitcoinStreams',
  summary: "List the project's Bitcoin streams",
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin',
  input: listBitcoinStreamsInput,
  fields: { limit: 'query', cursor: 'query' },
  response: bitcoinStreamListSchema,
  idempotent: true,
});

/** Lists the project's Bitcoin streams: `{ total, result }`. */
export function listBitcoinStreams(
  client: Client,
  input: ListBitcoinStreamsInput = {},
  options?: CallOptions,
) {
  return runOperation(client, listBitcoinStreamsOperation, input, options);
}
