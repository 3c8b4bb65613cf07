import * as z from 'zod/v4';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getMaxPriorityFeePerGasMethod = defineRpcMethod({
  id: 'getMaxPriorityFeePerGas',
  resource: 'rpc',
  action: 'getMaxPriorityFeePerGas',
  displayName: 'Get Max Priority Fee per Gas',
  examples: [{ input: {}, response: '0x3b9aca00' }],
  method: 'eth_maxPriorityFeePerGas',
  summary: 'The priority fee (tip) per gas the node suggests for an EIP-1559 transaction, in wei.',
  args: [],
  params: z.object({}),
  result: quantity,
});
