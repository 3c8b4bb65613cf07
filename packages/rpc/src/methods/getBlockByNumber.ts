import * as z from 'zod/v4';
import { blockTagInput, fullTransactionsInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { blockSchema } from '../schemas.js';
import { exampleBlock } from './examples.js';

export const getBlockByNumberMethod = defineRpcMethod({
  id: 'getBlockByNumber',
  resource: 'rpc',
  action: 'getBlockByNumber',
  displayName: 'Get Block by Number',
  examples: [{ input: { blockTag: 1 }, response: exampleBlock }],
  method: 'eth_getBlockByNumber',
  summary: 'A block by number or tag, with transaction hashes or full transactions; null when unknown.',
  args: ['blockTag', 'fullTransactions'],
  params: z.object({ blockTag: blockTagInput, fullTransactions: fullTransactionsInput }),
  result: blockSchema.nullable(),
});
