import * as z from 'zod/v4';
import { hashInput, quantityInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { transactionSchema } from '../schemas.js';
import { exampleTransaction, SEEDED_BLOCK_HASH } from './examples.js';

export const getTransactionByBlockHashAndIndexMethod = defineRpcMethod({
  id: 'getTransactionByBlockHashAndIndex',
  resource: 'rpc',
  action: 'getTransactionByBlockHashAndIndex',
  displayName: 'Get Transaction by Block Hash and Index',
  examples: [{ input: { hash: SEEDED_BLOCK_HASH, index: 0 }, response: exampleTransaction }],
  method: 'eth_getTransactionByBlockHashAndIndex',
  summary: 'The transaction at a position of a block, by the block hash; null when there is none.',
  args: ['hash', 'index'],
  params: z.object({
    hash: hashInput,
    index: quantityInput.meta({ description: 'The position of the transaction in the block, from 0.' }),
  }),
  result: transactionSchema.nullable(),
});
