import * as z from 'zod/v4';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getChainIdMethod = defineRpcMethod({
  id: 'getChainId',
  resource: 'rpc',
  action: 'getChainId',
  displayName: 'Get Chain ID',
  examples: [{ input: {}, response: '0x7a69' }],
  method: 'eth_chainId',
  summary: 'The chain id of the node, as 0x hex (0x7a69, that is 31337, on the emulator).',
  args: [],
  params: z.object({}),
  result: quantity,
});
