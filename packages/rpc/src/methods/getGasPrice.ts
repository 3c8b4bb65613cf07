import * as z from 'zod/v4';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getGasPriceMethod = defineRpcMethod({
  id: 'getGasPrice',
  resource: 'rpc',
  action: 'getGasPrice',
  displayName: 'Get Gas Price',
  examples: [{ input: {}, response: '0x3b9aca00' }],
  method: 'eth_gasPrice',
  summary: 'The gas price the node suggests, in wei, as 0x hex.',
  args: [],
  params: z.object({}),
  result: quantity,
});
