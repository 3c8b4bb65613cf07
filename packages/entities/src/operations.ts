/**
 * The definitions behind `@blockwire/entities`: everything its main entry exports, plus each
 * endpoint's operation object, its input and response schemas, and `actions` (the SDK functions
 * as data). For hosts that build on them; what they export may change in any minor version.
 */

export { actions, operations } from './actions.js';
export * from './index.js';
export { iterateEntitiesByCategoryInput } from './iterateEntitiesByCategory.js';
export * from './operations/definitions.js';
export {
  categorySchema,
  entitiesByCategoryResponseSchema,
  entityAddressSchema,
  entityCategoriesResponseSchema,
  entitySchema,
  entitySummarySchema,
  pageOf,
  pathSegmentId,
  searchAddressSchema,
  searchEntitiesResponseSchema,
  searchResultSchema,
} from './schemas.js';
