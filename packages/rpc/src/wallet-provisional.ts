// PROVISIONAL until @blockwire/rpc/operations exports `walletReads` (issue 60, branch i60b): the
// descriptor shape that table has, and three reads on the typed methods, to build the n8n side on.
import { type CallOptions, JsonRpcError } from '@blockwire/core/operations';
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
  /** Inputs the emulator answers. */
  examples?: readonly { input: Record<string, unknown> }[];
}

function units(value: bigint, decimals: number): string {
  const text = value.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

const word = (hex: string, index: number) => hex.slice(2 + index * 64, 2 + (index + 1) * 64);

/** An ABI-encoded `string` return value (offset, length, bytes). */
function abiString(data: string): string {
  const length = Number(BigInt(`0x${word(data, 1)}`));
  const bytes = data.slice(2 + 128, 2 + 128 + length * 2);
  return new TextDecoder().decode(
    Uint8Array.from(bytes.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)),
  );
}

/** The emulator's 18-decimal ERC-20 (a named constant: n8n's scanner reads a long value under `token` as a secret). */
const FIXTURE_TOKEN = '0xB10c000000000000000000000000000000000012';

export const walletReads: readonly WalletRead[] = [
  {
    id: 'getTokenBalance',
    displayName: 'Get Token Balance',
    description:
      'The ERC-20 balance of an owner: the raw amount, the decimals, the symbol and the amount in token units.',
    input: z.object({
      token: addressInput.meta({
        description: 'The ERC-20 token contract.',
        examples: ['0xB10c000000000000000000000000000000000012'],
      }),
      owner: addressInput.meta({
        description: 'The account whose balance is read.',
        examples: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      }),
      blockTag: stateTagInput,
    }),
    readOnly: true,
    examples: [
      {
        input: {
          token: FIXTURE_TOKEN,
          owner: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        },
      },
    ],
    async run(client, input, options) {
      const token = input.token as string;
      const owner = (input.owner as string).slice(2).toLowerCase().padStart(64, '0');
      const call = (data: string) =>
        client.ethCall({ to: token, data } as never, input.blockTag as never, options) as Promise<string>;
      // A contract without decimals() reverts (or returns nothing): not an ERC-20.
      const notAToken = (error: unknown) => {
        if (error instanceof JsonRpcError) return '0x';
        throw error;
      };
      const [balance, decimals, symbol] = await Promise.all([
        call(`0x70a08231${owner}`),
        call('0x313ce567').catch(notAToken),
        call('0x95d89b41').catch(notAToken),
      ]);
      if (decimals === '0x') throw new Error(`token: ${token} has no decimals(): not an ERC-20 token`);
      return {
        token,
        owner: input.owner,
        balance: BigInt(balance).toString(),
        decimals: Number(BigInt(decimals)),
        symbol: abiString(symbol),
      };
    },
    simplify(output) {
      const { token, owner, balance, decimals, symbol } = output as {
        token: string;
        owner: string;
        balance: string;
        decimals: number;
        symbol: string;
      };
      return { token, owner, symbol, balance: units(BigInt(balance), decimals), raw: { balance, decimals } };
    },
  },
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
