import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import {
  anyResponseSchema,
  bitcoinChainIdSchema,
  bitcoinStreamIdSchema,
  blockNumberSchema,
} from '../schemas.js';

export const replayBitcoinBlockInput = z.strictObject({
  chainId: bitcoinChainIdSchema,
  blockNumber: blockNumberSchema,
  streamId: bitcoinStreamIdSchema,
});
export type ReplayBitcoinBlockInput = z.input<typeof replayBitcoinBlockInput>;

export const replayBitcoinBlockOperation = defineOperation({
  id: 'replayBitcoinBlock',
  summary: "Replay a historical Bitcoin block to a stream's webhook (backfill)",
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{chainId}/block-to-webhook/{blockNumber}/{streamId}',
  input: replayBitcoinBlockInput,
  fields: { chainId: 'path', blockNumber: 'path', streamId: 'path' },
  // The spec does not show this call's response.
  response: anyResponseSchema,
  // Each call sends deliveries: a repeat would deliver the block twice.
  idempotent: false,
});

/** Sends the webhook deliveries of a historical block to a stream (backfill). */
export function replayBitcoinBlock(client: Client, input: ReplayBitcoinBlockInput, options?: CallOptions) {
  return runOperation(client, replayBitcoinBlockOperation, input, options);
}
