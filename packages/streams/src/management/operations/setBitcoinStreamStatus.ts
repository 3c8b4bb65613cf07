import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import { type BitcoinStreamChange, bitcoinStreamChangeSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const setBitcoinStreamStatusInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  status: z
    .enum(['active', 'paused'], { error: 'must be active or paused (a Bitcoin stream is paused or resumed)' })
    .meta({ description: 'paused stops deliveries; active resumes them.' }),
});
export type SetBitcoinStreamStatusInput = z.input<typeof setBitcoinStreamStatusInput>;

export const setBitcoinStreamStatusOperation = defineOperation({
  id: 'setBitcoinStreamStatus',
  resource: 'bitcoinStream',
  action: 'setStatus',
  displayName: 'Set Bitcoin Stream Status',
  summary: 'Pause or resume a Bitcoin stream',
  examples: [
    {
      input: { id: '0da99a82-5b1f-48da-962b-d9f5f4239942', status: 'paused' },
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
        status: 'paused',
        statusMessage: 'Stream is paused',
        isErrorSince: null,
        updatedAt: '2026-11-23T09:15:32.660Z',
        amountOfAddresses: 1,
      },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/status',
  input: setBitcoinStreamStatusInput,
  fields: { id: 'path', status: 'body' },
  response: bitcoinStreamChangeSchema,
  idempotent: true,
});

/** Pauses (`paused`) or resumes (`active`) a Bitcoin stream; resolves to whatever the service answers. */
export function setBitcoinStreamStatus(
  client: Client,
  input: SetBitcoinStreamStatusInput,
  options?: CallOptions,
): Promise<BitcoinStreamChange> {
  return runOperation(client, setBitcoinStreamStatusOperation, input, options);
}
