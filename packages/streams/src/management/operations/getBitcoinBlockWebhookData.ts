import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { bitcoinBlockWebhookDataSchema, bitcoinChainIdSchema, blockNumberSchema } from '../schemas.js';

export const getBitcoinBlockWebhookDataInput = z.strictObject({
  chainId: bitcoinChainIdSchema,
  blockNumber: blockNumberSchema,
});
export type GetBitcoinBlockWebhookDataInput = z.input<typeof getBitcoinBlockWebhookDataInput>;

export const getBitcoinBlockWebhookDataEndpoint = defineEndpoint({
  id: 'getBitcoinBlockWebhookData',
  resource: 'bitcoinStream',
  action: 'getBlockData',
  displayName: 'Get Block Webhook Data',
  summary: 'Get the webhook data a historical Bitcoin block would deliver, without delivering it',
  examples: [
    {
      input: { chainId: 'mainnet', blockNumber: 880001 },
      response: {
        streamId: '',
        chainId: 'mainnet',
        tag: '',
        confirmed: true,
        retries: 0,
        block: {
          height: '880001',
          hash: '0000000000000000000205734002f72128c434d0f355e56f08b8ce6d176bf208',
          transactionCount: 1,
        },
        transactions: [{ txid: '7c86b60a26b01fa6c3967dae97852f00c52072342252334f3c096d6b58fec559' }],
      },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{chainId}/block/{blockNumber}',
  input: getBitcoinBlockWebhookDataInput,
  fields: { chainId: 'path', blockNumber: 'path' },
  response: bitcoinBlockWebhookDataSchema,
  // A POST that only reads: safe to repeat, and changes nothing.
  idempotent: true,
  readOnly: true,
});

/** Gets the webhook data of a historical block (`chainId` `mainnet`), without delivering it. */
export const getBitcoinBlockWebhookData = getBitcoinBlockWebhookDataEndpoint.call;
