export { actions, operations } from './actions.js';
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
