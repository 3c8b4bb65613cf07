export { actions, operations } from './actions.js';
export {
  type GetEvmTokenPriceInput,
  getEvmTokenPrice,
  getEvmTokenPriceInput,
  getEvmTokenPriceOperation,
} from './operations/getEvmTokenPrice.js';
export {
  type GetSolanaTokenPricesInput,
  type GetSolanaTokenPricesOptions,
  getSolanaTokenPrices,
  getSolanaTokenPricesInput,
  getSolanaTokenPricesOperation,
  SOLANA_PRICES_DEFAULT_CONCURRENCY,
  SOLANA_PRICES_MAX_ADDRESSES,
  solanaTokenPricesCallInput,
} from './operations/getSolanaTokenPrices.js';
export {
  type EvmTokenPrice,
  evmTokenPriceSchema,
  SOLANA_NETWORKS,
  type SolanaNetwork,
  type SolanaTokenPrice,
  solanaAddress,
  solanaNetwork,
  solanaTokenPriceSchema,
  solanaTokenPricesSchema,
} from './schemas.js';
