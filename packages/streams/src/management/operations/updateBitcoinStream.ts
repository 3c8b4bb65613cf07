import { defineEndpoint, fieldsAt } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, exampleStream } from '../examples.js';
import { bitcoinStreamConfigShape, bitcoinStreamIdSchema, bitcoinStreamSchema } from '../schemas.js';

const settings = Object.keys(bitcoinStreamConfigShape);

export const updateBitcoinStreamInput = z
  .strictObject({
    id: bitcoinStreamIdSchema,
    ...bitcoinStreamConfigShape,
    webhookUrl: bitcoinStreamConfigShape.webhookUrl.optional(),
  })
  .refine((input) => settings.some((name) => input[name as keyof typeof input] !== undefined), {
    error: `nothing to update: give at least one of ${settings.join(', ')}`,
  });
export type UpdateBitcoinStreamInput = z.input<typeof updateBitcoinStreamInput>;

export const updateBitcoinStreamEndpoint = defineEndpoint({
  id: 'updateBitcoinStream',
  resource: 'bitcoinStream',
  action: 'update',
  displayName: 'Update Bitcoin Stream',
  summary: 'Change the configuration of a Bitcoin stream; the settings left out stay as they are',
  advanced: ['network'],
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID, description: 'Treasury watch (cold wallets)' },
      response: { ...exampleStream, description: 'Treasury watch (cold wallets)' },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}',
  input: updateBitcoinStreamInput,
  fields: { id: 'path', ...fieldsAt(bitcoinStreamConfigShape, 'body') },
  response: bitcoinStreamSchema,
  idempotent: true,
});

/** Changes the given settings of a Bitcoin stream (the others are left as they are); resolves to the stream. */
export const updateBitcoinStream = updateBitcoinStreamEndpoint.call;
