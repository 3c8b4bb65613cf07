import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import { type BitcoinStream, bitcoinStreamIdSchema, bitcoinStreamSchema } from '../schemas.js';

export const getBitcoinStreamInput = z.strictObject({ id: bitcoinStreamIdSchema });
export type GetBitcoinStreamInput = z.input<typeof getBitcoinStreamInput>;

export const getBitcoinStreamOperation = defineOperation({
  id: 'getBitcoinStream',
  resource: 'bitcoinStream',
  action: 'get',
  displayName: 'Get Bitcoin Stream',
  summary: 'Get one Bitcoin stream by id',
  examples: [
    {
      input: { id: '0da99a82-5b1f-48da-962b-d9f5f4239942' },
      response: {
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
    },
  ],
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}',
  input: getBitcoinStreamInput,
  fields: { id: 'path' },
  response: bitcoinStreamSchema,
  idempotent: true,
});

/** Gets one Bitcoin stream by id. */
export function getBitcoinStream(
  client: Client,
  input: GetBitcoinStreamInput,
  options?: CallOptions,
): Promise<BitcoinStream> {
  return runOperation(client, getBitcoinStreamOperation, input, options);
}
