/**
 * The filter of `eth_getLogs`. The contract states no limit on it ("Rate limits and size limits:
 * not shown"); hosted nodes refuse wide block ranges (commonly 2,000 to 10,000 blocks, some fewer
 * for busy contracts) with a node-specific error that arrives only after the request. The SDK
 * refuses a numeric range wider than `MAX_LOG_BLOCK_RANGE` before sending, naming the fields:
 * split the range, or give a block hash. A range ending at a tag (`latest`) is the node's to judge.
 */
import * as z from 'zod/v4';
import { addressInput, blockTagInput, type Hex, hashInput } from './inputs.js';

/** The widest `fromBlock`..`toBlock` range (both ends counted) `getLogs` sends: 10,000 blocks. */
export const MAX_LOG_BLOCK_RANGE = 10_000;

const topicInput = z.union([hashInput, z.null(), z.array(hashInput)], {
  error: 'must be a 32-byte topic, null (any) or a list of topics (any of them)',
});

export const logFilterInput = z
  .strictObject(
    {
      fromBlock: blockTagInput
        .optional()
        .meta({ title: 'From Block', description: 'The first block searched; latest when left out.' }),
      toBlock: blockTagInput
        .optional()
        .meta({ title: 'To Block', description: 'The last block searched; latest when left out.' }),
      blockHash: hashInput
        .optional()
        .meta({ description: 'One block to search, by hash, instead of fromBlock and toBlock.' }),
      address: z
        .union([addressInput, z.array(addressInput)], { error: 'must be an address or a list of addresses' })
        .optional()
        .meta({ description: 'The contract(s) whose logs are returned; every contract when left out.' }),
      topics: z
        .array(topicInput, { error: 'must be a list of up to 4 topics' })
        .max(4, { error: 'must be a list of up to 4 topics' })
        .optional()
        .meta({ description: 'Topics by position (the event signature hash first); null matches any.' }),
    },
    { error: 'must be a log filter: { fromBlock?, toBlock?, blockHash?, address?, topics? }' },
  )
  .superRefine((filter, ctx) => {
    if (filter.blockHash !== undefined && (filter.fromBlock !== undefined || filter.toBlock !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['blockHash'],
        message: 'must be given alone: a block hash and fromBlock/toBlock exclude each other',
      });
    }
    const from = numberOf(filter.fromBlock);
    const to = numberOf(filter.toBlock);
    if (from === undefined || to === undefined) return;
    if (to < from) {
      ctx.addIssue({ code: 'custom', path: ['toBlock'], message: `must not be before fromBlock (${from})` });
    } else if (to - from + 1n > BigInt(MAX_LOG_BLOCK_RANGE)) {
      ctx.addIssue({
        code: 'custom',
        path: ['toBlock'],
        message: `is ${to - from + 1n} blocks from fromBlock; getLogs asks for at most ${MAX_LOG_BLOCK_RANGE} (MAX_LOG_BLOCK_RANGE) at a time: split the range`,
      });
    }
  })
  .meta({
    description: `The log filter: { fromBlock?, toBlock?, blockHash?, address?, topics? }; a range of at most ${MAX_LOG_BLOCK_RANGE} blocks.`,
    examples: [{ fromBlock: '0x1', toBlock: 'latest' }],
  });

function numberOf(tag: Hex | string | undefined): bigint | undefined {
  return tag?.startsWith('0x') ? BigInt(tag) : undefined;
}
