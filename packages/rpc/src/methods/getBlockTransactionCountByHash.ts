import * as z from 'zod/v4';
import { hashInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';
import { SEEDED_BLOCK_HASH } from './examples.js';

export const getBlockTransactionCountByHashMethod = defineRpcMethod({
  id: 'getBlockTransactionCountByHash',
  resource: 'rpc',
  action: 'getBlockTransactionCountByHash',
  displayName: 'Get Block Transaction Count by Hash',
  examples: [{ input: { hash: SEEDED_BLOCK_HASH }, response: '0x1' }],
  method: 'eth_getBlockTransactionCountByHash',
  summary: 'The number of transactions in a block, by its hash; null when the block is unknown.',
  args: ['hash'],
  params: z.object({ hash: hashInput }),
  result: quantity.nullable(),
});
