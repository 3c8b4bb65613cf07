import { type CallOptions, type Client, defineOperation, fieldsAt, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import {
  type BitcoinStream,
  bitcoinNetworkSchema,
  bitcoinStreamConfigShape,
  bitcoinStreamSchema,
} from '../schemas.js';

export const createBitcoinStreamInput = z.strictObject({
  ...bitcoinStreamConfigShape,
  network: bitcoinNetworkSchema.default(['mainnet']),
});
export type CreateBitcoinStreamInput = z.input<typeof createBitcoinStreamInput>;

export const createBitcoinStreamOperation = defineOperation({
  id: 'createBitcoinStream',
  resource: 'bitcoinStream',
  action: 'create',
  displayName: 'Create Bitcoin Stream',
  summary: 'Create a Bitcoin stream that POSTs matching transactions to a webhook',
  advanced: ['network'],
  examples: [
    {
      input: {
        webhookUrl: 'https://example.com/webhooks/bitcoin',
        description: 'Treasury watch',
        tag: 'treasury',
        includeOutputs: true,
      },
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
        amountOfAddresses: 0,
      },
    },
  ],
  api: 'streams',
  method: 'PUT',
  path: '/streams/bitcoin',
  input: createBitcoinStreamInput,
  fields: fieldsAt(bitcoinStreamConfigShape, 'body'),
  response: bitcoinStreamSchema,
  // A repeated create would make a second stream: never retried once it may have arrived.
  idempotent: false,
});

/** Creates a Bitcoin stream (network `["mainnet"]`, the only one served); resolves to the new stream. */
export function createBitcoinStream(
  client: Client,
  input: CreateBitcoinStreamInput,
  options?: CallOptions,
): Promise<BitcoinStream> {
  return runOperation(client, createBitcoinStreamOperation, input, options);
}
