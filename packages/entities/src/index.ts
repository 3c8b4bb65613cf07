import { getEntitiesByCategoryOperation } from './operations/getEntitiesByCategory.js';
import { getEntityOperation } from './operations/getEntity.js';
import { getEntityCategoriesOperation } from './operations/getEntityCategories.js';
import { searchEntitiesOperation } from './operations/searchEntities.js';

export { actions } from './actions.js';
export {
  type IterateEntitiesByCategoryInput,
  type IterateOptions,
  iterateEntitiesByCategory,
  iterateEntitiesByCategoryInput,
} from './iterateEntitiesByCategory.js';
export {
  type GetEntitiesByCategoryInput,
  getEntitiesByCategory,
  getEntitiesByCategoryInput,
  getEntitiesByCategoryOperation,
} from './operations/getEntitiesByCategory.js';
export {
  type GetEntityInput,
  getEntity,
  getEntityInput,
  getEntityOperation,
} from './operations/getEntity.js';
export {
  type GetEntityCategoriesInput,
  getEntityCategories,
  getEntityCategoriesInput,
  getEntityCategoriesOperation,
} from './operations/getEntityCategories.js';
export {
  type SearchEntitiesInput,
  searchEntities,
  searchEntitiesInput,
  searchEntitiesOperation,
} from './operations/searchEntities.js';
export {
  type Category,
  categorySchema,
  type EntitiesByCategoryResponse,
  type Entity,
  type EntityAddress,
  type EntityCategoriesResponse,
  type EntitySummary,
  entitiesByCategoryResponseSchema,
  entityAddressSchema,
  entityCategoriesResponseSchema,
  entitySchema,
  entitySummarySchema,
  type Page,
  pageOf,
  pathSegmentId,
  type SearchAddress,
  type SearchEntitiesResponse,
  type SearchResult,
  searchAddressSchema,
  searchEntitiesResponseSchema,
  searchResultSchema,
} from './schemas.js';

/**
 * Every operation of this package, in the contract's order. Note for routers: `/entities/search`
 * and `/entities/categories` also match getEntity's `/entities/{entityId}`; try literal paths first.
 */
export const operations = [
  getEntitiesByCategoryOperation,
  searchEntitiesOperation,
  getEntityOperation,
  getEntityCategoriesOperation,
] as const;
