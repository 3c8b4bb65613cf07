import * as z from 'zod/v4';
import { addressInput, stateTagInput } from '../inputs.js';
import { DEV_ACCOUNT, FIXTURE_ERC20 } from './examples.js';
import { defineWalletRead, toJson } from './wallet-read.js';

export const readContractRead = defineWalletRead({
  id: 'readContract',
  displayName: 'Read Contract',
  description:
    'Calls a view function given as one human-readable ABI fragment and decodes the result; integers come back as decimal strings.',
  input: z.object({
    address: addressInput.meta({ description: 'The contract called.' }),
    abi: z.string().meta({
      title: 'ABI Fragment',
      description: 'One function fragment, e.g. function balanceOf(address owner) view returns (uint256).',
      examples: ['function balanceOf(address owner) view returns (uint256)'],
    }),
    args: z.array(z.unknown()).default([]).meta({
      title: 'Arguments',
      description: 'The arguments in order, e.g. ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"].',
    }),
    blockTag: stateTagInput,
  }),
  simplified: z.object({
    result: z.unknown().meta({ description: 'The decoded return value; a list when it returns several.' }),
    raw: z.object({ address: z.string(), abi: z.string() }),
  }),
  examples: [
    {
      address: FIXTURE_ERC20,
      abi: 'function balanceOf(address owner) view returns (uint256)',
      args: [DEV_ACCOUNT],
    },
    { address: FIXTURE_ERC20, abi: 'function symbol() view returns (string)' },
  ],
  async run(client, { address, abi, args, blockTag }, options) {
    const result = await client.readContract({ address, abi, args, blockTag }, options);
    return { address, abi, result: toJson(result) };
  },
  simplify: (output) => ({ result: output.result, raw: { address: output.address, abi: output.abi } }),
});
