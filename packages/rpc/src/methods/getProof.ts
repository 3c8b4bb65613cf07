import * as z from 'zod/v4';
import { addressInput, blockTagInput, storageKeyInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { proofSchema } from '../schemas.js';
import { exampleProof } from './examples.js';

export const getProofMethod = defineRpcMethod({
  id: 'getProof',
  resource: 'rpc',
  action: 'getProof',
  displayName: 'Get Proof',
  examples: [
    {
      input: { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', storageKeys: [] },
      response: exampleProof,
    },
  ],
  method: 'eth_getProof',
  summary: 'The Merkle proof of an account and some of its storage slots at a block.',
  args: ['address', 'storageKeys', 'blockTag'],
  params: z.object({
    address: addressInput,
    storageKeys: z
      .array(storageKeyInput, { error: 'must be an array of 32-byte storage keys' })
      .default([])
      .meta({ description: 'The storage slots to prove; an empty list proves the account only.' }),
    // The contract: the state tag is treated as `latest` when null (or left out).
    blockTag: blockTagInput
      .nullish()
      .transform((tag) => tag ?? 'latest')
      .meta({
        description: 'The state to prove: a block number or latest, earliest, pending; latest when left out.',
      }),
  }),
  result: proofSchema.nullable(),
});
