import * as z from 'zod/v4';
import { logFilterInput } from '../log-filter.js';
import { defineRpcMethod } from '../method.js';
import { logSchema } from '../schemas.js';
import { exampleLogs, SEEDED_CONTRACT } from './examples.js';

export const getLogsMethod = defineRpcMethod({
  id: 'getLogs',
  resource: 'rpc',
  action: 'getLogs',
  displayName: 'Get Logs',
  examples: [
    { input: { filter: { fromBlock: 4, toBlock: 5, address: SEEDED_CONTRACT } }, response: exampleLogs },
  ],
  method: 'eth_getLogs',
  summary:
    'The event logs matching a filter, oldest first; a numeric block range is at most MAX_LOG_BLOCK_RANGE blocks.',
  args: ['filter'],
  params: z.object({ filter: logFilterInput }),
  result: z.array(logSchema),
});
