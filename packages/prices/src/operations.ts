/**
 * The definitions behind `@blockwire/prices`: everything its main entry exports, plus each
 * endpoint's operation object, its input and response schemas, and `actions` (the SDK functions
 * as data). For hosts that build on them; what they export may change in any minor version.
 */

export { actions, operations } from './actions.js';
export * from './index.js';
export * from './operations/definitions.js';
export {
  evmTokenPriceSchema,
  solanaAddress,
  solanaNetwork,
  solanaTokenPriceSchema,
  solanaTokenPricesSchema,
} from './schemas.js';
