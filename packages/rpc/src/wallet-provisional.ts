// PROVISIONAL until @blockwire/rpc/operations exports `walletReads` (issue 60, branch i60b): the
// descriptor shape that table has, and three reads on the typed methods, to build the n8n side on.
import type { CallOptions } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import type { RpcClient } from './client.js';
import { addressInput, stateTagInput } from './inputs.js';

export interface WalletRead {
  id: string;
  displayName: string;
  description: string;
  input: z.core.$ZodType;
  run(client: RpcClient, input: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  simplify(output: unknown): unknown;
  readOnly: true;
}

function units(value: bigint, decimals: number): string {
  const text = value.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export const walletReads: readonly WalletRead[] = [
  {
    id: 'getBalance',
    displayName: 'Get Balance',
    description: 'The native balance of an address, in wei and in ETH.',
    input: z.object({ address: addressInput, blockTag: stateTagInput }),
    readOnly: true,
    async run(client, input, options) {
      const wei = BigInt(await client.getBalance(input.address as string, input.blockTag as never, options));
      return { address: input.address, wei: wei.toString() };
    },
    simplify(output) {
      const { address, wei } = output as { address: string; wei: string };
      return { address, balance: units(BigInt(wei), 18), raw: { wei } };
    },
  },
  {
    id: 'getBlockNumber',
    displayName: 'Get Block Number',
    description: 'The number of the latest block.',
    input: z.object({}),
    readOnly: true,
    async run(client, _input, options) {
      return { blockNumber: BigInt(await client.getBlockNumber(options)).toString() };
    },
    simplify(output) {
      const { blockNumber } = output as { blockNumber: string };
      return { blockNumber: Number(blockNumber), raw: { blockNumber } };
    },
  },
  {
    id: 'getGasPrice',
    displayName: 'Get Gas Price',
    description: 'The gas price the node suggests, in wei and in gwei.',
    input: z.object({}),
    readOnly: true,
    async run(client, _input, options) {
      return { wei: BigInt(await client.getGasPrice(options)).toString() };
    },
    simplify(output) {
      const { wei } = output as { wei: string };
      return { gasPrice: units(BigInt(wei), 9), raw: { wei } };
    },
  },
];
