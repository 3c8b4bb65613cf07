import { defineAction } from '@blockwire/core/operations';
import {
  getEntitiesByCategory,
  getEntitiesByCategoryInput,
  getEntitiesByCategoryOperation,
} from './operations/getEntitiesByCategory.js';
import { getEntity, getEntityInput, getEntityOperation } from './operations/getEntity.js';
import {
  getEntityCategories,
  getEntityCategoriesInput,
  getEntityCategoriesOperation,
} from './operations/getEntityCategories.js';
import { searchEntities, searchEntitiesInput, searchEntitiesOperation } from './operations/searchEntities.js';

/**
 * The SDK functions of this package as data, in the contract's order: a consumer routes `operation.resource` /
 * `operation.action` to `call` with no switch of its own. Listings return one page; their
 * operation's `paging` says how to ask for the next.
 */
export const actions = [
  defineAction({
    operation: getEntitiesByCategoryOperation,
    input: getEntitiesByCategoryInput,
    call: getEntitiesByCategory,
  }),
  defineAction({ operation: searchEntitiesOperation, input: searchEntitiesInput, call: searchEntities }),
  defineAction({ operation: getEntityOperation, input: getEntityInput, call: getEntity }),
  defineAction({
    operation: getEntityCategoriesOperation,
    input: getEntityCategoriesInput,
    call: getEntityCategories,
  }),
] as const;

/**
 * Every operation of this package. Note for routers: `/entities/search` and `/entities/categories`
 * also match getEntity's `/entities/{entityId}`: try literal paths first.
 */
export const operations = actions.map((action) => action.operation);
