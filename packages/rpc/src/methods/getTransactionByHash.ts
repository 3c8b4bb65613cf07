import * as z from 'zod/v4';
import { hashInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { transactionSchema } from '../schemas.js';
import { exampleTransaction, SEEDED_TX_HASH } from './examples.js';

export const getTransactionByHashMethod = defineRpcMethod({
  id: 'getTransactionByHash',
  resource: 'rpc',
  action: 'getTransactionByHash',
  displayName: 'Get Transaction by Hash',
  examples: [{ input: { hash: SEEDED_TX_HASH }, response: exampleTransaction }],
  method: 'eth_getTransactionByHash',
  summary: 'A transaction by its hash; null when unknown.',
  args: ['hash'],
  params: z.object({ hash: hashInput }),
  result: transactionSchema.nullable(),
});
