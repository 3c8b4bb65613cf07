import * as z from 'zod/v4';
import { blockTagInput, quantityInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { feeHistorySchema } from '../schemas.js';

/** The most blocks one `eth_feeHistory` call covers on geth and anvil. */
const MAX_FEE_HISTORY_BLOCKS = 1024;

export const getFeeHistoryMethod = defineRpcMethod({
  id: 'getFeeHistory',
  resource: 'rpc',
  action: 'getFeeHistory',
  displayName: 'Get Fee History',
  examples: [
    {
      input: { blockCount: 2, newestBlock: 'latest', rewardPercentiles: [25, 75] },
      response: {
        oldestBlock: '0x6',
        baseFeePerGas: ['0x1eacfd50', '0x1ad75da6', '0x177c71f2'],
        gasUsedRatio: [0, 0],
        baseFeePerBlobGas: ['0x1', '0x1', '0x1'],
        blobGasUsedRatio: [0, 0],
        reward: [
          ['0x0', '0x0'],
          ['0x0', '0x0'],
        ],
      },
    },
  ],
  method: 'eth_feeHistory',
  summary: 'Base fees, gas used ratios and (when percentiles are asked) priority fees of recent blocks.',
  args: ['blockCount', 'newestBlock', 'rewardPercentiles'],
  params: z.object({
    blockCount: quantityInput
      .refine((count) => BigInt(count) >= 1n && BigInt(count) <= BigInt(MAX_FEE_HISTORY_BLOCKS), {
        error: `must be from 1 to ${MAX_FEE_HISTORY_BLOCKS} blocks`,
      })
      .meta({
        description: `How many blocks, from 1 to ${MAX_FEE_HISTORY_BLOCKS}, ending at newestBlock.`,
        examples: ['4'],
      }),
    newestBlock: blockTagInput.meta({
      description: 'The last block of the history: a number or latest, pending.',
    }),
    rewardPercentiles: z
      .array(z.number({ error: 'must be a number from 0 to 100' }).min(0).max(100), {
        error: 'must be a list of percentiles from 0 to 100',
      })
      .refine((list) => list.every((value, i) => i === 0 || value >= list[i - 1]!), {
        error: 'must be in ascending order',
      })
      .default([])
      .meta({ description: 'Percentiles (0 to 100, ascending) of priority fees to report per block.' }),
  }),
  result: feeHistorySchema,
});
