import * as z from 'zod/v4';
import { formatUnits } from '../convert.js';
import { addressInput, stateTagInput } from '../inputs.js';
import { DEV_ACCOUNT } from './examples.js';
import { decimalString, nodeHex, unitsString } from './simplified-values.js';
import { defineWalletRead } from './wallet-read.js';

export const getBalanceRead = defineWalletRead({
  id: 'getBalance',
  displayName: 'Get Balance',
  description: "An account's native balance (ETH on Ethereum), in wei and in whole coins.",
  input: z.object({
    address: addressInput.meta({ description: 'The account (EIP-55 checksummed, or all one case).' }),
    blockTag: stateTagInput,
  }),
  simplified: z.object({
    address: z.string(),
    balance: unitsString,
    unit: z.literal('ETH'),
    raw: z.object({ wei: decimalString, hex: nodeHex }),
  }),
  examples: [{ address: DEV_ACCOUNT }, { address: DEV_ACCOUNT, blockTag: 'earliest' }],
  async run(client, { address, blockTag }, options) {
    const hex = await client.getBalance(address, blockTag, options);
    return { address, blockTag, wei: BigInt(hex).toString(), hex };
  },
  simplify: (output) => ({
    address: output.address,
    balance: formatUnits(BigInt(output.wei), 18),
    unit: 'ETH' as const,
    raw: { wei: output.wei, hex: output.hex },
  }),
});
