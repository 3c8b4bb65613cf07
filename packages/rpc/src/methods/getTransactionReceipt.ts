import * as z from 'zod/v4';
import { hashInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { receiptSchema } from '../schemas.js';
import { exampleReceipt, SEEDED_TX_HASH } from './examples.js';

export const getTransactionReceiptMethod = defineRpcMethod({
  id: 'getTransactionReceipt',
  resource: 'rpc',
  action: 'getTransactionReceipt',
  displayName: 'Get Transaction Receipt',
  examples: [{ input: { hash: SEEDED_TX_HASH }, response: exampleReceipt }],
  method: 'eth_getTransactionReceipt',
  summary: 'The receipt of a mined transaction; null when unknown or still pending.',
  args: ['hash'],
  params: z.object({ hash: hashInput }),
  result: receiptSchema.nullable(),
});
