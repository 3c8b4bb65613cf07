import { defineAction } from '@blockwire/core/operations';
import {
  getEvmTokenPrice,
  getEvmTokenPriceInput,
  getEvmTokenPriceOperation,
} from './operations/getEvmTokenPrice.js';
import {
  getSolanaTokenPrices,
  getSolanaTokenPricesInput,
  getSolanaTokenPricesOperation,
} from './operations/getSolanaTokenPrices.js';

/**
 * The SDK functions of this package as data, in the contract's order: a consumer (the n8n node, a
 * CLI, an agent tool) routes `operation.resource` / `operation.action` to `call` with no switch of
 * its own. Solana prices take any number of addresses: `call` chunks them 100 a request.
 */
export const actions = [
  defineAction({
    operation: getEvmTokenPriceOperation,
    input: getEvmTokenPriceInput,
    call: getEvmTokenPrice,
  }),
  defineAction({
    operation: getSolanaTokenPricesOperation,
    input: getSolanaTokenPricesInput,
    call: getSolanaTokenPrices,
  }),
] as const;

/** Every operation of this package, in the contract's order. */
export const operations = actions.map((action) => action.operation);
