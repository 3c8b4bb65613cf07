import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, exampleStream } from '../examples.js';
import { bitcoinStreamChangeSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const setBitcoinStreamStatusInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  status: z
    .enum(['active', 'paused'], { error: 'must be active or paused (a Bitcoin stream is paused or resumed)' })
    .meta({ description: 'paused stops deliveries; active resumes them.' }),
});
export type SetBitcoinStreamStatusInput = z.input<typeof setBitcoinStreamStatusInput>;

export const setBitcoinStreamStatusEndpoint = defineEndpoint({
  id: 'setBitcoinStreamStatus',
  resource: 'bitcoinStream',
  action: 'setStatus',
  displayName: 'Set Bitcoin Stream Status',
  summary: 'Pause or resume a Bitcoin stream',
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID, status: 'paused' },
      response: { ...exampleStream, status: 'paused' as const, statusMessage: 'Stream is paused' },
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
export const setBitcoinStreamStatus = setBitcoinStreamStatusEndpoint.call;
