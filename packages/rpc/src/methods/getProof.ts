import { z } from 'zod/v4';
import { addressInput, blockTagInput, storageKeyInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { proofSchema } from '../schemas.js';

export const getProofMethod = defineRpcMethod({
  id: 'getProof',
  method: 'eth_getProof',
  summary: 'The Merkle proof of an account and some of its storage slots at a block.',
  args: ['address', 'storageKeys', 'blockTag'],
  params: z.object({
    address: addressInput,
    storageKeys: z.array(storageKeyInput, { error: 'must be an array of 32-byte storage keys' }),
    blockTag: blockTagInput.default('latest'),
  }),
  result: proofSchema.nullable(),
});
