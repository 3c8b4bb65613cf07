import * as z from 'zod/v4';
import { addressInput, stateTagInput, storageSlotInput } from '../inputs.js';
import { defineRpcMethod } from '../method.js';
import { hex } from '../schemas.js';
import { SEEDED_CONTRACT } from './examples.js';

export const getStorageAtMethod = defineRpcMethod({
  id: 'getStorageAt',
  resource: 'rpc',
  action: 'getStorageAt',
  displayName: 'Get Storage At',
  examples: [
    {
      input: { address: SEEDED_CONTRACT, slot: 0 },
      response: '0x000000000000000000000000000000000000000000000000000000000000002d',
    },
  ],
  method: 'eth_getStorageAt',
  summary: 'The 32-byte value of a storage slot of a contract.',
  args: ['address', 'slot', 'blockTag'],
  params: z.object({ address: addressInput, slot: storageSlotInput, blockTag: stateTagInput }),
  result: hex,
});
