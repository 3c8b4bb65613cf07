/** Token prices: one EVM token (now or at a block), and any number of Solana tokens. */
import { resolveChain } from '@blockwire/core';
import { type EvmTokenPrice, getEvmTokenPrice, getSolanaTokenPrices } from '@blockwire/prices';
import * as z from 'zod/v4';
import { DemoError } from '../problems.js';
import { requestsSoFar } from '../service-requests.js';
import type { PriceView, SolanaPricesView } from '../views.js';
import { defineRoute, optionalDigits, type RouteContext, text } from './route.js';

/** The SDK splits any number of Solana addresses into calls of 100; the demo caps one lookup here. */
export const MAX_SOLANA_ADDRESSES = 1000;
/** The most text one lookup may paste (1,000 addresses of 44 characters and separators fit). */
export const MAX_SOLANA_TEXT = 100_000;

/** 100000 → "100,000". */
export const grouped = (value: number) => value.toLocaleString('en-US');

/** Numbers the contract may send as strings (`"199878836.42"`); undefined when absent or not numeric. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

export function toPriceView(price: EvmTokenPrice, chainInput: string, address: string): PriceView {
  const chain = resolveChain(chainInput);
  const native = price.nativePrice;
  return {
    chain: { name: chain.name, hexId: chain.hexId },
    tokenAddress: price.tokenAddress ?? address,
    usdPrice: price.usdPrice,
    possibleSpam: price.possibleSpam,
    verifiedContract: price.verifiedContract,
    ...defined({
      name: price.tokenName ?? undefined,
      symbol: price.tokenSymbol ?? undefined,
      change24hPercent: numberOf(price.usdPrice24hrPercentChange ?? price['24hrPercentChange']),
      pairLiquidityUsd: numberOf(price.pairTotalLiquidityUsd),
      pairAddress: price.pairAddress ?? undefined,
      exchangeName: price.exchangeName ?? undefined,
      exchangeAddress: price.exchangeAddress ?? undefined,
      securityScore: numberOf(price.securityScore),
      block: price.toBlock == null ? undefined : String(price.toBlock),
      nativePrice:
        native?.value != null && native.symbol
          ? {
              value: String(native.value),
              decimals: Number(native.decimals ?? 18),
              symbol: String(native.symbol),
            }
          : undefined,
    }),
  };
}

/** The object without its undefined fields (the views leave out what the service did not say). */
export function defined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Addresses pasted any way (lines, commas, spaces), each once, in order. */
export function splitAddresses(input: string | string[]): string[] {
  const parts = Array.isArray(input) ? input : input.split(/[\s,;]+/);
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
}

export function priceRoutes({ backend }: RouteContext) {
  const { client } = backend;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/prices/evm',
      input: z.strictObject({ chain: text(40), address: text(100), toBlock: optionalDigits() }),
      subject: ({ chain, toBlock }) => `this token on ${chain}${toBlock ? ` at block ${toBlock}` : ''}`,
      handle: async ({ chain, address, toBlock }): Promise<PriceView> => {
        const price = await getEvmTokenPrice(client, { chain, address, ...(toBlock ? { toBlock } : {}) });
        return toPriceView(price, chain, address);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/prices/solana',
      input: z.strictObject({
        addresses: z.union(
          [
            z
              .string()
              .max(MAX_SOLANA_TEXT, { error: `must be at most ${grouped(MAX_SOLANA_TEXT)} characters` }),
            z
              .array(z.string().max(100, { error: 'must be at most 100 characters' }))
              .max(MAX_SOLANA_ADDRESSES, {
                error: `must hold at most ${grouped(MAX_SOLANA_ADDRESSES)} addresses`,
              }),
          ],
          {
            error: 'must be text or a list of addresses',
          },
        ),
        network: z.enum(['mainnet', 'devnet'], { error: 'must be mainnet or devnet' }).default('mainnet'),
      }),
      subject: () => 'these Solana tokens',
      handle: async ({ addresses: raw, network }): Promise<SolanaPricesView> => {
        const addresses = splitAddresses(raw);
        if (addresses.length === 0)
          throw new DemoError(400, 'Paste at least one Solana token address.', 'addresses');
        if (addresses.length > MAX_SOLANA_ADDRESSES) {
          throw new DemoError(
            400,
            `That is ${grouped(addresses.length)} addresses; the demo looks up at most ${grouped(MAX_SOLANA_ADDRESSES)} at once.`,
            'addresses',
          );
        }
        const prices = await getSolanaTokenPrices(client, { network, addresses });
        const priced = new Set(prices.map((price) => price.tokenAddress));
        return {
          network,
          asked: addresses.length,
          calls: requestsSoFar(),
          missing: addresses.filter((address) => !priced.has(address)),
          prices: prices.map((price) => ({
            tokenAddress: price.tokenAddress ?? '',
            ...defined({
              name: price.name ?? undefined,
              symbol: price.symbol ?? undefined,
              usdPrice: numberOf(price.usdPrice),
              change24hPercent: numberOf(price.usdPrice24hrPercentChange),
              exchangeName: price.exchangeName ?? undefined,
              score: numberOf(price.score),
              verified: price.isVerifiedContract ?? undefined,
            }),
          })),
        };
      },
    }),
  ];
}
