import { z } from 'zod/v4';
import { hashInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { transactionSchema } from '../schemas.js';

export const getTransactionByHashMethod = defineRpcMethod({
  id: 'getTransactionByHash',
  method: 'eth_getTransactionByHash',
  summary: 'A transaction by its hash; null when unknown.',
  args: ['hash'],
  params: z.object({ hash: hashInput }),
  result: transactionSchema.nullable(),
});
