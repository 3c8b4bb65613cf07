/** Token prices: one EVM token (now or at a block), and any number of Solana tokens. */
import { resolveChain } from '@blockwire/core';
import { type EvmTokenPrice, getEvmTokenPrice, getSolanaTokenPrices } from '@blockwire/prices';
import { evmPriceInput, solanaAddressesOf, solanaPricesInput } from '../inputs.js';
import { DemoError } from '../problems.js';
import { requestsSoFar } from '../service-requests.js';
import type { PriceView, SolanaPricesView } from '../views.js';
import { defineRoute, type RouteContext } from './route.js';

export { grouped, MAX_SOLANA_ADDRESSES, MAX_SOLANA_TEXT, splitAddresses } from '../inputs.js';

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

export function priceRoutes({ backend }: RouteContext) {
  const { client } = backend;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/prices/evm',
      input: evmPriceInput,
      subject: ({ chain, toBlock }) => `this token on ${chain}${toBlock ? ` at block ${toBlock}` : ''}`,
      handle: async ({ chain, address, toBlock }): Promise<PriceView> => {
        const price = await getEvmTokenPrice(client, { chain, address, ...(toBlock ? { toBlock } : {}) });
        return toPriceView(price, chain, address);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/prices/solana',
      input: solanaPricesInput,
      subject: () => 'these Solana tokens',
      handle: async ({ addresses: raw, network }): Promise<SolanaPricesView> => {
        const addresses = solanaAddressesOf(raw);
        if (!Array.isArray(addresses)) throw new DemoError(400, addresses.message, addresses.field);
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
