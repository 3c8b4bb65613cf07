import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import { type BitcoinStreamChange, bitcoinStreamChangeSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const deleteBitcoinStreamInput = z.strictObject({ id: bitcoinStreamIdSchema });
export type DeleteBitcoinStreamInput = z.input<typeof deleteBitcoinStreamInput>;

export const deleteBitcoinStreamOperation = defineOperation({
  id: 'deleteBitcoinStream',
  resource: 'bitcoinStream',
  action: 'delete',
  displayName: 'Delete Bitcoin Stream',
  summary: 'Remove a Bitcoin stream; its deliveries stop',
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
  method: 'DELETE',
  path: '/streams/bitcoin/{id}',
  input: deleteBitcoinStreamInput,
  fields: { id: 'path' },
  response: bitcoinStreamChangeSchema,
  idempotent: false,
});

/** Removes a Bitcoin stream; resolves to whatever the service answers. */
export function deleteBitcoinStream(
  client: Client,
  input: DeleteBitcoinStreamInput,
  options?: CallOptions,
): Promise<BitcoinStreamChange> {
  return runOperation(client, deleteBitcoinStreamOperation, input, options);
}
