import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { bitcoinBlockWebhookDataSchema, bitcoinChainIdSchema, blockNumberSchema } from '../schemas.js';

export const getBitcoinBlockWebhookDataInput = z.strictObject({
  chainId: bitcoinChainIdSchema,
  blockNumber: blockNumberSchema,
});
export type GetBitcoinBlockWebhookDataInput = z.input<typeof getBitcoinBlockWebhookDataInput>;

export const getBitcoinBlockWebhookDataOperation = defineOperation({
  id: 'getBitcoinBlockWebhookData',
  summary: 'Get the webhook data a historical Bitcoin block would deliver',
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{chainId}/block/{blockNumber}',
  input: getBitcoinBlockWebhookDataInput,
  fields: { chainId: 'path', blockNumber: 'path' },
  response: bitcoinBlockWebhookDataSchema,
  // A POST that only reads: safe to repeat.
  idempotent: true,
});

/** Gets the webhook data of a historical block (`chainId` `mainnet`), without delivering it. */
export function getBitcoinBlockWebhookData(
  client: Client,
  input: GetBitcoinBlockWebhookDataInput,
  options?: CallOptions,
) {
  return runOperation(client, getBitcoinBlockWebhookDataOperation, input, options);
}
