import {
  type CallOptions,
  type Client,
  defineOperation,
  nonNegativeInteger,
  runOperation,
} from '@blockwire/core';
import { z } from 'zod/v4';
import { type EntityCategoriesResponse, entityCategoriesResponseSchema } from '../schemas.js';

export const getEntityCategoriesInput = z.strictObject({
  /** Page size. */
  limit: nonNegativeInteger.optional(),
});
export type GetEntityCategoriesInput = z.input<typeof getEntityCategoriesInput>;

export const getEntityCategoriesOperation = defineOperation({
  id: 'getEntityCategories',
  summary: 'List entity categories',
  api: 'evm',
  method: 'GET',
  path: '/entities/categories',
  input: getEntityCategoriesInput,
  fields: { limit: 'query' },
  response: entityCategoriesResponseSchema,
  idempotent: true,
});

/** The categories that group entities, with how many entities each holds. */
export function getEntityCategories(
  client: Client,
  input: GetEntityCategoriesInput = {},
  options?: CallOptions,
): Promise<EntityCategoriesResponse> {
  return runOperation(client, getEntityCategoriesOperation, input, options);
}
