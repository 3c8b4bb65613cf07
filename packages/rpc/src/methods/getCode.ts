import * as z from 'zod/v4';
import { addressInput, stateTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { hex } from '../schemas.js';
import { SEEDED_CONTRACT } from './examples.js';

export const getCodeMethod = defineRpcMethod({
  id: 'getCode',
  resource: 'rpc',
  action: 'getCode',
  displayName: 'Get Code',
  examples: [
    {
      input: { address: SEEDED_CONTRACT },
      response:
        '0x600054600101600055336000527ffee8775ba9b0f00b87db291c081d99de518bdebb6ccfa2482cc5882fe69307e560206000a100',
    },
  ],
  method: 'eth_getCode',
  summary: 'The bytecode deployed at an address; 0x for an account without code.',
  args: ['address', 'blockTag'],
  params: z.object({ address: addressInput, blockTag: stateTagInput }),
  result: hex,
});
