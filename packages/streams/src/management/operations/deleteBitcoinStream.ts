import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, exampleStream } from '../examples.js';
import { bitcoinStreamChangeSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const deleteBitcoinStreamInput = z.strictObject({ id: bitcoinStreamIdSchema });
export type DeleteBitcoinStreamInput = z.input<typeof deleteBitcoinStreamInput>;

export const deleteBitcoinStreamEndpoint = defineEndpoint({
  id: 'deleteBitcoinStream',
  resource: 'bitcoinStream',
  action: 'delete',
  displayName: 'Delete Bitcoin Stream',
  summary: 'Remove a Bitcoin stream; its deliveries stop',
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID },
      response: exampleStream,
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
export const deleteBitcoinStream = deleteBitcoinStreamEndpoint.call;
