import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { bitcoinStreamIdSchema, bitcoinStreamSchema } from '../schemas.js';

export const getBitcoinStreamInput = z.strictObject({ id: bitcoinStreamIdSchema });
export type GetBitcoinStreamInput = z.input<typeof getBitcoinStreamInput>;

export const getBitcoinStreamOperation = defineOperation({
  id: 'getBitcoinStream',
  summary: 'Get one Bitcoin stream',
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}',
  input: getBitcoinStreamInput,
  fields: { id: 'path' },
  response: bitcoinStreamSchema,
  idempotent: true,
});

/** Gets one Bitcoin stream by id. */
export function getBitcoinStream(client: Client, input: GetBitcoinStreamInput, options?: CallOptions) {
  return runOperation(client, getBitcoinStreamOperation, input, options);
}
