import * as z from 'zod/v4';
import { formatUnits } from '../convert.js';
import { decimalString, nodeHex, unitsString } from './simplified-values.js';
import { defineWalletRead } from './wallet-read.js';

export const getGasPriceRead = defineWalletRead({
  id: 'getGasPrice',
  displayName: 'Get Gas Price',
  description: "The node's gas price for a legacy transaction, in wei and in gwei.",
  input: z.object({}),
  simplified: z.object({
    gasPrice: unitsString,
    unit: z.literal('gwei'),
    raw: z.object({ wei: decimalString, hex: nodeHex }),
  }),
  examples: [{}],
  async run(client, _input, options) {
    const hex = await client.getGasPrice(options);
    return { wei: BigInt(hex).toString(), hex };
  },
  simplify: (output) => ({
    gasPrice: formatUnits(BigInt(output.wei), 9),
    unit: 'gwei' as const,
    raw: { wei: output.wei, hex: output.hex },
  }),
});
