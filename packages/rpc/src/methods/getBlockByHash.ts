import * as z from 'zod/v4';
import { fullTransactionsInput, hashInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { blockSchema } from '../schemas.js';
import { exampleBlock, SEEDED_BLOCK_HASH } from './examples.js';

export const getBlockByHashMethod = defineRpcMethod({
  id: 'getBlockByHash',
  resource: 'rpc',
  action: 'getBlockByHash',
  displayName: 'Get Block by Hash',
  examples: [{ input: { hash: SEEDED_BLOCK_HASH }, response: exampleBlock }],
  method: 'eth_getBlockByHash',
  summary: 'A block by its hash, with transaction hashes or full transactions; null when unknown.',
  args: ['hash', 'fullTransactions'],
  params: z.object({ hash: hashInput, fullTransactions: fullTransactionsInput }),
  result: blockSchema.nullable(),
});
