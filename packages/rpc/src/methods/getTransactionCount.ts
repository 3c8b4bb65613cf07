import * as z from 'zod/v4';
import { addressInput, stateTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getTransactionCountMethod = defineRpcMethod({
  id: 'getTransactionCount',
  resource: 'rpc',
  action: 'getTransactionCount',
  displayName: 'Get Transaction Count',
  examples: [{ input: { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, response: '0x6' }],
  method: 'eth_getTransactionCount',
  summary: 'The number of transactions an account has sent (its nonce), as 0x hex.',
  args: ['address', 'blockTag'],
  params: z.object({ address: addressInput, blockTag: stateTagInput }),
  result: quantity,
});
