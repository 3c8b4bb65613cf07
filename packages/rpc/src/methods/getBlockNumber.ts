import * as z from 'zod/v4';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getBlockNumberMethod = defineRpcMethod({
  id: 'getBlockNumber',
  resource: 'rpc',
  action: 'getBlockNumber',
  displayName: 'Get Block Number',
  examples: [{ input: {}, response: '0x7' }],
  method: 'eth_blockNumber',
  summary: 'The number of the latest block, as 0x hex (hexToBigInt or hexToNumber converts it).',
  args: [],
  params: z.object({}),
  result: quantity,
});
