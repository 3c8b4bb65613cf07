import {
  type CallOptions,
  type Client,
  defineOperation,
  nonNegativeInteger,
  runOperation,
} from '@blockwire/core';
import { z } from 'zod/v4';
import {
  type EntitiesByCategoryResponse,
  entitiesByCategoryResponseSchema,
  pathSegmentId,
} from '../schemas.js';

export const getEntitiesByCategoryInput = z.strictObject({
  /** The category's id, as `getEntityCategories` lists it. */
  categoryId: pathSegmentId,
  /** Which page; left out, the service picks its first page. */
  page: nonNegativeInteger.optional(),
  /** Page size. */
  limit: nonNegativeInteger.optional(),
});
export type GetEntitiesByCategoryInput = z.input<typeof getEntitiesByCategoryInput>;

/**
 * The contract names no query parameters for this call but answers with a page envelope, so
 * `page` and `limit` are sent as query parameters, the way the other listings take them.
 */
export const getEntitiesByCategoryOperation = defineOperation({
  id: 'getEntitiesByCategory',
  summary: 'List the entities of a category, one page',
  api: 'evm',
  method: 'GET',
  path: '/entities/categories/{categoryId}',
  input: getEntitiesByCategoryInput,
  fields: { categoryId: 'path', page: 'query', limit: 'query' },
  response: entitiesByCategoryResponseSchema,
  idempotent: true,
});

/** One page of the entities in a category. To walk every page, use `iterateEntitiesByCategory`. */
export function getEntitiesByCategory(
  client: Client,
  input: GetEntitiesByCategoryInput,
  options?: CallOptions,
): Promise<EntitiesByCategoryResponse> {
  return runOperation(client, getEntitiesByCategoryOperation, input, options);
}
