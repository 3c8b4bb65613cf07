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
export * from './operations/index.js';
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
