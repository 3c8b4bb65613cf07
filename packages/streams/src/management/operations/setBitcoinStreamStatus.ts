import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { anyResponseSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const setBitcoinStreamStatusInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  status: z.enum(['active', 'paused'], {
    error: 'must be active or paused (a Bitcoin stream is paused or resumed)',
  }),
});
export type SetBitcoinStreamStatusInput = z.input<typeof setBitcoinStreamStatusInput>;

export const setBitcoinStreamStatusOperation = defineOperation({
  id: 'setBitcoinStreamStatus',
  summary: 'Pause or resume a Bitcoin stream',
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/status',
  input: setBitcoinStreamStatusInput,
  fields: { id: 'path', status: 'body' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  idempotent: true,
});

/** Pauses (`paused`) or resumes (`active`) a Bitcoin stream; resolves to whatever the service answers. */
export function setBitcoinStreamStatus(
  client: Client,
  input: SetBitcoinStreamStatusInput,
  options?: CallOptions,
) {
  return runOperation(client, setBitcoinStreamStatusOperation, input, options);
}
