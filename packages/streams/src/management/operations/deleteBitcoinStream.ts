import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, exampleStream } from '../examples.js';
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
export function deleteBitcoinStream(
  client: Client,
  input: DeleteBitcoinStreamInput,
  options?: CallOptions,
): Promise<BitcoinStreamChange> {
  return runOperation(client, deleteBitcoinStreamOperation, input, options);
}
