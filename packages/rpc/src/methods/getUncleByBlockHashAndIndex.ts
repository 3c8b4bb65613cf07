import * as z from 'zod/v4';
import { hashInput, quantityInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { uncleSchema } from '../schemas.js';
import { SEEDED_BLOCK_HASH } from './examples.js';

export const getUncleByBlockHashAndIndexMethod = defineRpcMethod({
  id: 'getUncleByBlockHashAndIndex',
  resource: 'rpc',
  action: 'getUncleByBlockHashAndIndex',
  displayName: 'Get Uncle by Block Hash and Index',
  examples: [{ input: { hash: SEEDED_BLOCK_HASH, index: 0 }, response: null }],
  method: 'eth_getUncleByBlockHashAndIndex',
  summary: 'An uncle of the block with this hash, by position; null when there is none.',
  args: ['hash', 'index'],
  params: z.object({ hash: hashInput, index: quantityInput }),
  result: uncleSchema.nullable(),
});
