import {
  type CallOptions,
  type Client,
  defineOperation,
  evmAddress,
  evmChain,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  runOperation,
} from '@blockwire/core';
import { z } from 'zod/v4';
import { type EvmTokenPrice, evmTokenPriceSchema } from '../schemas.js';

export const getEvmTokenPriceInput = z.strictObject({
  /** Token contract address, 0x + 40 hex digits in any case. */
  address: evmAddress,
  /** Chain name (`eth`, `polygon`, `bsc testnet`), hex id (`0x89`) or decimal id (`137`); sent as the hex id. Service default: `eth`. */
  chain: evmChain.optional(),
  /** Factory name or address of the exchange to take the price from. */
  exchange: nonEmptyString.optional(),
  /** Block number the price is taken from (historical price). */
  toBlock: nonNegativeInteger.optional(),
  /** Leave out tokens inactive for more than this many days. */
  maxTokenInactivity: nonNegativeNumber.optional(),
  /** Leave out tokens whose liquidity on one side of the pair is below this USD amount. */
  minPairSideLiquidityUsd: nonNegativeNumber.optional(),
});
export type GetEvmTokenPriceInput = z.input<typeof getEvmTokenPriceInput>;

/** `include=percent_change` is deprecated (percent changes are always included), so it is never sent. */
export const getEvmTokenPriceOperation = defineOperation({
  id: 'getEvmTokenPrice',
  summary: 'Get the USD price of an ERC-20 token on an EVM chain',
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
export function getEvmTokenPrice(
  client: Client,
  input: GetEvmTokenPriceInput,
  options?: CallOptions,
): Promise<EvmTokenPrice> {
  return runOperation(client, getEvmTokenPriceOperation, input, options);
}
