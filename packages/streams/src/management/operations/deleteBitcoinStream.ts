import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { anyResponseSchema, bitcoinStreamIdSchema } from '../schemas.js';

export const deleteBitcoinStreamInput = z.strictObject({ id: bitcoinStreamIdSchema });
export type DeleteBitcoinStreamInput = z.input<typeof deleteBitcoinStreamInput>;

export const deleteBitcoinStreamOperation = defineOperation({
  id: 'deleteBitcoinStream',
  summary: 'Remove a Bitcoin stream',
  api: 'streams',
  method: 'DELETE',
  path: '/streams/bitcoin/{id}',
  input: deleteBitcoinStreamInput,
  fields: { id: 'path' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  idempotent: false,
});

/** Removes a Bitcoin stream; resolves to whatever the service answers. */
export function deleteBitcoinStream(client: Client, input: DeleteBitcoinStreamInput, options?: CallOptions) {
  return runOperation(client, deleteBitcoinStreamOperation, input, options);
}
