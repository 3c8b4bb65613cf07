import { z } from 'zod/v4';
import { hashInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { receiptSchema } from '../schemas.js';

export const getTransactionReceiptMethod = defineRpcMethod({
  id: 'getTransactionReceipt',
  method: 'eth_getTransactionReceipt',
  summary: 'The receipt of a mined transaction; null when unknown or still pending.',
  args: ['hash'],
  params: z.object({ hash: hashInput }),
  result: receiptSchema.nullable(),
});
