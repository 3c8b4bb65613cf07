import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import {
  type BitcoinStreamList,
  bitcoinStreamListSchema,
  cursorSchema,
  pageLimitSchema,
} from '../schemas.js';

export const listBitcoinStreamsInput = z.strictObject({
  limit: pageLimitSchema.optional(),
  cursor: cursorSchema.optional(),
});
export type ListBitcoinStreamsInput = z.input<typeof listBitcoinStreamsInput>;

export const listBitcoinStreamsOperation = defineOperation({
  id: 'listBitcoinStreams',
  resource: 'bitcoinStream',
  action: 'getMany',
  displayName: 'Get Many Bitcoin Streams',
  summary: "List the project's Bitcoin streams",
  paging: {
    style: 'cursor',
    cursorField: 'cursor',
    limitField: 'limit',
    nextCursor: 'cursor',
    items: 'result',
  },
  examples: [
    {
      input: { limit: 10 },
      response: {
        total: 1,
        result: [
          {
            id: '0da99a82-5b1f-48da-962b-d9f5f4239942',
            webhookUrl: 'https://example.com/webhooks/bitcoin',
            description: 'Treasury watch',
            tag: 'treasury',
            network: ['mainnet'],
            includeInputs: false,
            includeOutputs: true,
            allAddresses: false,
            demo: false,
            status: 'active',
            statusMessage: 'Stream is active',
            isErrorSince: null,
            updatedAt: '2026-11-23T09:15:32.660Z',
            amountOfAddresses: 1,
          },
        ],
      },
    },
  ],
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
): Promise<BitcoinStreamList> {
  return runOperation(client, listBitcoinStreamsOperation, input, options);
}
