import * as z from 'zod/v4';
import { callInput, stateTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { hex } from '../schemas.js';
import { SEEDED_CONTRACT } from './examples.js';

export const ethCallMethod = defineRpcMethod({
  id: 'ethCall',
  resource: 'rpc',
  action: 'ethCall',
  displayName: 'Call Contract (Raw)',
  examples: [
    {
      input: { transaction: { to: SEEDED_CONTRACT, data: '0x' } },
      response: '0x',
    },
  ],
  method: 'eth_call',
  summary: 'Runs a call against the state without sending a transaction; the raw return data as 0x hex.',
  args: ['transaction', 'blockTag'],
  params: z.object({ transaction: callInput, blockTag: stateTagInput }),
  result: hex,
});
