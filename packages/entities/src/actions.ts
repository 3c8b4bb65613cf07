import { defineAction } from '@blockwire/core';
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
 * The SDK functions of this package as data: a consumer routes `operation.resource` /
 * `operation.action` to `call` with no switch of its own. Listings return one page; their
 * operation's `paging` says how to ask for the next.
 */
export const actions = [
  defineAction({ operation: getEntityOperation, input: getEntityInput, call: getEntity }),
  defineAction({ operation: searchEntitiesOperation, input: searchEntitiesInput, call: searchEntities }),
  defineAction({
    operation: getEntityCategoriesOperation,
    input: getEntityCategoriesInput,
    call: getEntityCategories,
  }),
  defineAction({
    operation: getEntitiesByCategoryOperation,
    input: getEntitiesByCategoryInput,
    call: getEntitiesByCategory,
  }),
] as const;
