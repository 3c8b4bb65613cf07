import * as z from 'zod/v4';
import { blockTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getBlockTransactionCountByNumberMethod = defineRpcMethod({
  id: 'getBlockTransactionCountByNumber',
  resource: 'rpc',
  action: 'getBlockTransactionCountByNumber',
  displayName: 'Get Block Transaction Count by Number',
  examples: [{ input: { blockTag: 1 }, response: '0x1' }],
  method: 'eth_getBlockTransactionCountByNumber',
  summary: 'The number of transactions in a block, by number or tag; null when the block is unknown.',
  args: ['blockTag'],
  params: z.object({ blockTag: blockTagInput }),
  result: quantity.nullable(),
});
