/**
 * Token prices: what a user calls. The operation objects, their zod schemas and `actions` (for
 * hosts that build on the definitions: the n8n node, the emulator, an agent tool) are in
 * `@blockwire/prices/operations`, so changing them is not a change of this entry.
 */
export { type GetEvmTokenPriceInput, getEvmTokenPrice } from './operations/getEvmTokenPrice.js';
export {
  type GetSolanaTokenPricesInput,
  type GetSolanaTokenPricesOptions,
  getSolanaTokenPrices,
  SOLANA_PRICES_DEFAULT_CONCURRENCY,
  SOLANA_PRICES_MAX_ADDRESSES,
} from './operations/getSolanaTokenPrices.js';
export { type EvmTokenPrice, SOLANA_NETWORKS, type SolanaNetwork, type SolanaTokenPrice } from './schemas.js';
