import { getEvmTokenPriceOperation } from './operations/getEvmTokenPrice.js';
import { getSolanaTokenPricesOperation } from './operations/getSolanaTokenPrices.js';

export { actions } from './actions.js';
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

/** Every operation of this package, in the contract's order. */
export const operations = [getEvmTokenPriceOperation, getSolanaTokenPricesOperation] as const;
