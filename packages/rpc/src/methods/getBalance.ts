import * as z from 'zod/v4';
import { addressInput, stateTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const getBalanceMethod = defineRpcMethod({
  id: 'getBalance',
  resource: 'rpc',
  action: 'getBalance',
  displayName: 'Get Balance',
  examples: [
    { input: { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, response: '0x21d9501c9886321b7bc' },
  ],
  method: 'eth_getBalance',
  summary: 'The balance of an account in wei, as 0x hex (formatUnits(hexToBigInt(b), 18) gives ETH).',
  args: ['address', 'blockTag'],
  params: z.object({ address: addressInput, blockTag: stateTagInput }),
  result: quantity,
});
