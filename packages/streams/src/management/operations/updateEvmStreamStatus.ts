import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { evmStreamIdSchema, evmStreamSchema, streamStatusSchema } from '../schemas.js';

export const updateEvmStreamStatusInput = z.strictObject({
  id: evmStreamIdSchema,
  status: streamStatusSchema,
});
export type UpdateEvmStreamStatusInput = z.input<typeof updateEvmStreamStatusInput>;

export const updateEvmStreamStatusEndpoint = defineEndpoint({
  id: 'updateEvmStreamStatus',
  resource: 'evmStream',
  action: 'updateStatus',
  displayName: 'Update EVM Stream Status',
  summary: 'Set the status of an EVM stream: active, paused, error or terminated',
  examples: [
    {
      input: { id: '6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61', status: 'paused' },
      response: {
        webhookUrl: 'https://example.com/webhooks/evm/1',
        description: 'USDC treasury transfers',
        tag: 'evm-1',
        chainIds: ['0x1'],
        id: '6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61',
        status: 'paused',
        statusMessage: 'Stream is paused',
        updatedAt: '2026-11-23T09:15:32.660Z',
        amountOfAddresses: 3,
      },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/evm/{id}/status',
  input: updateEvmStreamStatusInput,
  fields: { id: 'path', status: 'body' },
  response: evmStreamSchema,
  idempotent: true,
});

/** Sets an EVM stream's status; resolves to the stream with its resulting status. */
export const updateEvmStreamStatus = updateEvmStreamStatusEndpoint.call;
