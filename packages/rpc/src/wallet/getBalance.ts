import * as z from 'zod/v4';
import { formatUnits } from '../convert.js';
import { addressInput, stateTagInput } from '../inputs.js';
import { defineWalletRead } from './wallet-read.js';

export const getBalanceRead = defineWalletRead({
  id: 'getBalance',
  displayName: 'Get Balance',
  description: "An account's native balance (ETH on Ethereum), in wei and in whole coins.",
  input: z.object({
    address: addressInput.meta({ description: 'The account (EIP-55 checksummed, or all one case).' }),
    blockTag: stateTagInput,
  }),
  async run(client, { address, blockTag }, options) {
    const hex = await client.getBalance(address, blockTag, options);
    return { address, blockTag, wei: BigInt(hex).toString(), hex };
  },
  simplify: (output) => ({
    address: output.address,
    balance: formatUnits(BigInt(output.wei), 18),
    unit: 'ETH',
    raw: { wei: output.wei, hex: output.hex },
  }),
});
