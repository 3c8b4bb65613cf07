import * as z from 'zod/v4';
import { addressInput, stateTagInput } from '../inputs.js';
import { DEV_ACCOUNT, FIXTURE_ERC20 } from './examples.js';
import { decimalString, unitsString } from './simplified-values.js';
import { defineWalletRead } from './wallet-read.js';

export const getTokenBalanceRead = defineWalletRead({
  id: 'getTokenBalance',
  displayName: 'Get Token Balance',
  description:
    "An account's ERC-20 balance with the token's decimals and symbol; the amount in whole tokens keeps every digit.",
  input: z.object({
    token: addressInput.meta({ description: 'The ERC-20 contract.' }),
    owner: addressInput.meta({ description: 'The account whose balance is read.' }),
    blockTag: stateTagInput,
  }),
  simplified: z.object({
    token: z.string(),
    owner: z.string(),
    symbol: z.string(),
    balance: unitsString,
    raw: z.object({ amount: decimalString, decimals: z.number().int().nonnegative() }),
  }),
  examples: [{ token: FIXTURE_ERC20, owner: DEV_ACCOUNT }],
  async run(client, { token, owner, blockTag }, options) {
    const balance = await client.getTokenBalance({ token, owner, blockTag }, options);
    return { ...balance, raw: balance.raw.toString() };
  },
  simplify: (output) => ({
    token: output.token,
    owner: output.owner,
    symbol: output.symbol,
    balance: output.formatted,
    raw: { amount: output.raw, decimals: output.decimals },
  }),
});
