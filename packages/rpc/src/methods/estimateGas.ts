import * as z from 'zod/v4';
import { callInput, stateTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { quantity } from '../schemas.js';

export const estimateGasMethod = defineRpcMethod({
  id: 'estimateGas',
  resource: 'rpc',
  action: 'estimateGas',
  displayName: 'Estimate Gas',
  examples: [
    {
      input: {
        transaction: {
          from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          value: '0x1',
        },
      },
      response: '0x5208',
    },
  ],
  method: 'eth_estimateGas',
  summary: 'The gas a transaction would use, as 0x hex; a call that reverts is an error.',
  args: ['transaction', 'blockTag'],
  params: z.object({ transaction: callInput, blockTag: stateTagInput }),
  result: quantity,
});
