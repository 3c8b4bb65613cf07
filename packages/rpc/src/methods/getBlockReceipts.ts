import * as z from 'zod/v4';
import { blockTagInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { receiptSchema } from '../schemas.js';
import { exampleReceipt } from './examples.js';

export const getBlockReceiptsMethod = defineRpcMethod({
  id: 'getBlockReceipts',
  resource: 'rpc',
  action: 'getBlockReceipts',
  displayName: 'Get Block Receipts',
  examples: [{ input: { blockTag: 1 }, response: [exampleReceipt] }],
  method: 'eth_getBlockReceipts',
  summary: 'The receipts of every transaction in a block; null when the block is unknown.',
  args: ['blockTag'],
  params: z.object({ blockTag: blockTagInput }),
  result: z.array(receiptSchema).nullable(),
});
