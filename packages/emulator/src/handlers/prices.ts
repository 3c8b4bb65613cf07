import { operations } from '@blockwire/prices/operations';
import { buildEvmTokens, type EvmTokenFixture, type PairFixture } from '../fixtures/evm-tokens.js';
import { buildSolanaTokens, SOL_DECIMALS, WRAPPED_SOL } from '../fixtures/solana-tokens.js';
import { type PriceScript, priceKeyOf, SOLANA_CHAIN } from '../price-script.js';
import { createRandom } from '../random.js';
import { defineRoutes, notFound, type Route } from './define.js';

/** The message the real service gives when it cannot price a token. */
export const NO_PRICE_MESSAGE = 'No pools found with enough liquidity, to calculate the price';

/** The tokens the price routes serve, as the price script keys them (`priceKeyOf`). */
export function pricedTokenKeys(seed: number): Set<string> {
  return new Set([
    ...buildEvmTokens(seed).map((token) => priceKeyOf(token.chain.hexId, token.address)),
    ...buildSolanaTokens(seed).map((token) => priceKeyOf(SOLANA_CHAIN, token.address)),
  ]);
}

/** `script`: prices set through the control API, which replace the generated ones. */
export function createPriceRoutes(seed: number, script?: PriceScript): Route[] {
  const evmTokens = buildEvmTokens(seed);
  const solanaTokens = buildSolanaTokens(seed);
  const solanaByAddress = new Map(solanaTokens.map((token) => [token.address, token]));
  const wrappedSol = solanaByAddress.get(WRAPPED_SOL)!;
  /** The price in lamports, named after wrapped SOL as the service does. */
  const solanaNativePrice = (usdPrice: number) => ({
    value: BigInt(Math.round((usdPrice / wrappedSol.usdPrice) * 10 ** SOL_DECIMALS)).toString(),
    decimals: SOL_DECIMALS,
    name: wrappedSol.name,
    symbol: wrappedSol.symbol,
  });

  return defineRoutes(operations, {
    getEvmTokenPrice: (input) => {
      const chain = input.chain ?? '0x1';
      const address = input.address.toLowerCase();
      const token = evmTokens.find((t) => t.chain.hexId === chain && t.address === address);
      if (!token) throw notFound(`${NO_PRICE_MESSAGE} (no token ${input.address} on chain ${chain})`);
      const block = Math.min(input.toBlock ?? token.chain.head, token.chain.head);
      if (block < token.createdAtBlock) {
        throw notFound(
          `${NO_PRICE_MESSAGE} (${token.symbol} has no pool before block ${token.createdAtBlock})`,
        );
      }
      const maxInactivity = input.maxTokenInactivity;
      if (maxInactivity !== undefined && token.inactiveDays > maxInactivity) {
        throw notFound(
          `${NO_PRICE_MESSAGE} (${token.symbol} last traded ${token.inactiveDays} days ago, more than max_token_inactivity ${maxInactivity})`,
        );
      }
      const minSide = input.minPairSideLiquidityUsd;
      const exchange = input.exchange;
      const pairs = token.pairs
        .filter((pair) => exchange === undefined || exchangeMatches(pair, exchange))
        .filter((pair) => minSide === undefined || pair.minSideLiquidityUsd >= minSide)
        .sort((a, b) => b.liquidityUsd - a.liquidityUsd);
      const pair = pairs[0];
      if (!pair) {
        const why = [
          exchange !== undefined ? `exchange ${exchange}` : '',
          minSide !== undefined ? `min_pair_side_liquidity_usd ${minSide}` : '',
        ]
          .filter(Boolean)
          .join(' and ');
        throw notFound(`${NO_PRICE_MESSAGE} (${token.symbol} has no pair matching ${why})`);
      }
      return evmPrice(seed, token, pair, block, script?.take(token.chain.hexId, token.address));
    },

    getSolanaTokenPrices: ({ network, addresses }) => {
      // Like the service: tokens without a price are left out, the rest come in request order.
      const prices = [...new Set(addresses)].flatMap((address) => {
        const token = solanaByAddress.get(address);
        if (!token?.networks.includes(network)) return [];
        const usdPrice = script?.take(SOLANA_CHAIN, token.address) ?? token.usdPrice;
        const usdChange = usdPrice - token.usdPrice24h;
        return [
          {
            tokenAddress: token.address,
            pairAddress: token.pairAddress,
            usdPrice,
            exchangeAddress: token.exchangeAddress,
            exchangeName: token.exchangeName,
            logo: token.logo,
            name: token.name,
            symbol: token.symbol,
            score: token.score,
            usdPrice24h: token.usdPrice24h,
            usdPrice24hrUsdChange: round(usdChange, 10),
            usdPrice24hrPercentChange: round((usdChange / token.usdPrice24h) * 100, 6),
            isVerifiedContract: token.isVerifiedContract,
            nativePrice: solanaNativePrice(usdPrice),
          },
        ];
      });
      return prices;
    },
  });
}

/** `exchange` is a factory name (any case, spaces optional: `uniswapv3`, `Uniswap v3`) or address. */
function exchangeMatches(pair: PairFixture, exchange: string): boolean {
  const wanted = exchange.toLowerCase();
  if (wanted.startsWith('0x')) return pair.exchange.address === wanted;
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return squash(pair.exchange.name) === squash(wanted);
}

/** The price at a block: a slow swing plus a little per-block noise, the same on every run. */
export function priceAt(seed: number, token: EvmTokenFixture, block: number): number {
  const phase = createRandom(seed, `phase:${token.address}`).between(0, Math.PI * 2);
  const period = token.chain.blocksPerDay * 3;
  const swing = Math.sin((block / period) * Math.PI * 2 + phase) * token.volatility;
  const noise = (createRandom(seed, `noise:${token.address}:${block}`).next() - 0.5) * token.volatility * 0.1;
  return Number((token.basePriceUsd * (1 + swing + noise)).toPrecision(10));
}

/** `scripted`: the price the control API set, which replaces the generated one at every block. */
function evmPrice(
  seed: number,
  token: EvmTokenFixture,
  pair: PairFixture,
  block: number,
  scripted: number | undefined,
) {
  const usdPrice = scripted ?? priceAt(seed, token, block);
  const usdPrice24h = priceAt(seed, token, Math.max(0, block - token.chain.blocksPerDay));
  const usdChange = usdPrice - usdPrice24h;
  // One rounding for both fields that carry it: the string and the number are the same value.
  const percentChange = Number(((usdChange / usdPrice24h) * 100).toFixed(6)) || 0;
  const native = token.chain.native;
  const nativeWei = BigInt(Math.round((usdPrice / native.usd) * 1e18));
  return {
    tokenName: token.name,
    tokenSymbol: token.symbol,
    tokenLogo: token.logo,
    tokenDecimals: String(token.decimals),
    nativePrice: {
      value: nativeWei.toString(),
      decimals: 18,
      name: native.name,
      symbol: native.symbol,
      address: native.wrapped,
    },
    usdPrice,
    usdPriceFormatted: String(usdPrice),
    '24hrPercentChange': percentChange.toFixed(6),
    exchangeAddress: pair.exchange.address,
    exchangeName: pair.exchange.name,
    tokenAddress: token.address,
    toBlock: String(block),
    possibleSpam: token.possibleSpam,
    verifiedContract: token.verifiedContract,
    pairAddress: pair.pairAddress,
    pairTotalLiquidityUsd: pair.liquidityUsd.toFixed(2),
    usdPrice24h,
    usdPrice24hrUsdChange: round(usdChange, 10),
    usdPrice24hrPercentChange: percentChange,
    securityScore: token.securityScore,
  };
}

function round(value: number, digits: number): number {
  return Number(value.toPrecision(digits));
}
