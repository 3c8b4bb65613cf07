import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { evmStreamIdSchema, evmStreamSchema, streamStatusSchema } from '../schemas.js';

export const updateEvmStreamStatusInput = z.strictObject({
  id: evmStreamIdSchema,
  status: streamStatusSchema,
});
export type UpdateEvmStreamStatusInput = z.input<typeof updateEvmStreamStatusInput>;

export const updateEvmStreamStatusOperation = defineOperation({
  id: 'updateEvmStreamStatus',
  summary: 'Set the status of an EVM stream (active, paused, error, terminated)',
  api: 'streams',
  method: 'POST',
  path: '/streams/evm/{id}/status',
  input: updateEvmStreamStatusInput,
  fields: { id: 'path', status: 'body' },
  response: evmStreamSchema,
  idempotent: true,
});

/** Sets an EVM stream's status; resolves to the stream with its resulting status. */
export function updateEvmStreamStatus(
  client: Client,
  input: UpdateEvmStreamStatusInput,
  options?: CallOptions,
) {
  return runOperation(client, updateEvmStreamStatusOperation, input, options);
}
