/**
 * The entity directory: what a user calls. The operation objects, their zod schemas and
 * `actions` (for hosts that build on the definitions: the n8n node, the emulator, an agent tool)
 * are in `@blockwire/entities/operations`, so changing them is not a change of this entry.
 */
export {
  type IterateEntitiesByCategoryInput,
  type IterateOptions,
  iterateEntitiesByCategory,
} from './iterateEntitiesByCategory.js';
export {
  type GetEntitiesByCategoryInput,
  getEntitiesByCategory,
} from './operations/getEntitiesByCategory.js';
export { type GetEntityInput, getEntity } from './operations/getEntity.js';
export {
  type GetEntityCategoriesInput,
  getEntityCategories,
} from './operations/getEntityCategories.js';
export { type SearchEntitiesInput, searchEntities } from './operations/searchEntities.js';
export type {
  Category,
  EntitiesByCategoryResponse,
  Entity,
  EntityAddress,
  EntityCategoriesResponse,
  EntitySummary,
  Page,
  SearchAddress,
  SearchEntitiesResponse,
  SearchResult,
} from './schemas.js';
