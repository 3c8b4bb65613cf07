import * as z from 'zod/v4';
import { blockTagInput, quantityInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { transactionSchema } from '../schemas.js';
import { exampleTransaction } from './examples.js';

export const getTransactionByBlockNumberAndIndexMethod = defineRpcMethod({
  id: 'getTransactionByBlockNumberAndIndex',
  resource: 'rpc',
  action: 'getTransactionByBlockNumberAndIndex',
  displayName: 'Get Transaction by Block Number and Index',
  examples: [{ input: { blockTag: 1, index: 0 }, response: exampleTransaction }],
  method: 'eth_getTransactionByBlockNumberAndIndex',
  summary: 'The transaction at a position of a block, by number or tag; null when there is none.',
  args: ['blockTag', 'index'],
  params: z.object({
    blockTag: blockTagInput,
    index: quantityInput.meta({ description: 'The position of the transaction in the block, from 0.' }),
  }),
  result: transactionSchema.nullable(),
});
