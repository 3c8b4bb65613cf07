import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID } from '../examples.js';
import {
  bitcoinBlockReplaySchema,
  bitcoinChainIdSchema,
  bitcoinStreamIdSchema,
  blockNumberSchema,
} from '../schemas.js';

export const replayBitcoinBlockInput = z.strictObject({
  chainId: bitcoinChainIdSchema,
  blockNumber: blockNumberSchema,
  streamId: bitcoinStreamIdSchema.meta({ description: 'The stream that receives the replayed block.' }),
});
export type ReplayBitcoinBlockInput = z.input<typeof replayBitcoinBlockInput>;

export const replayBitcoinBlockEndpoint = defineEndpoint({
  id: 'replayBitcoinBlock',
  resource: 'bitcoinStream',
  action: 'replayBlock',
  displayName: 'Replay Block',
  summary: 'Replay a historical Bitcoin block to a stream’s webhook (backfill)',
  examples: [
    {
      input: { chainId: 'mainnet', blockNumber: 880001, streamId: EXAMPLE_STREAM_ID },
      response: {
        streamId: EXAMPLE_STREAM_ID,
        chainId: 'mainnet',
        blockNumber: 880001,
        confirmed: true,
        transactionCount: 0,
      },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{chainId}/block-to-webhook/{blockNumber}/{streamId}',
  input: replayBitcoinBlockInput,
  fields: { chainId: 'path', blockNumber: 'path', streamId: 'path' },
  response: bitcoinBlockReplaySchema,
  // Each call sends deliveries: a repeat would deliver the block twice.
  idempotent: false,
});

/** Sends the webhook deliveries of a historical block to a stream (backfill). */
export const replayBitcoinBlock = replayBitcoinBlockEndpoint.call;
