import * as z from 'zod/v4';
import { blockTagInput, quantityInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { uncleSchema } from '../schemas.js';

export const getUncleByBlockNumberAndIndexMethod = defineRpcMethod({
  id: 'getUncleByBlockNumberAndIndex',
  resource: 'rpc',
  action: 'getUncleByBlockNumberAndIndex',
  displayName: 'Get Uncle by Block Number and Index',
  examples: [{ input: { blockTag: 1, index: 0 }, response: null }],
  method: 'eth_getUncleByBlockNumberAndIndex',
  summary: 'An uncle of the block with this number or tag, by position; null when there is none.',
  args: ['blockTag', 'index'],
  params: z.object({ blockTag: blockTagInput, index: quantityInput }),
  result: uncleSchema.nullable(),
});
