import * as z from 'zod/v4';
import { hexToNumber } from '../convert.js';
import { nodeHex } from './simplified-values.js';
import { defineWalletRead } from './wallet-read.js';

export const getBlockNumberRead = defineWalletRead({
  id: 'getBlockNumber',
  displayName: 'Get Block Number',
  description: 'The number of the latest block.',
  input: z.object({}),
  simplified: z.object({ blockNumber: z.number().int().nonnegative(), raw: z.object({ hex: nodeHex }) }),
  examples: [{}],
  async run(client, _input, options) {
    const hex = await client.getBlockNumber(options);
    return { blockNumber: hexToNumber(hex), hex };
  },
  simplify: (output) => ({ blockNumber: output.blockNumber, raw: { hex: output.hex } }),
});
