import {
  type CallOptions,
  type Client,
  defineOperation,
  nonEmptyString,
  nonNegativeInteger,
  runOperation,
} from '@blockwire/core';
import { z } from 'zod/v4';
import { type SearchEntitiesResponse, searchEntitiesResponseSchema } from '../schemas.js';

export const searchEntitiesInput = z.strictObject({
  /** The search text. */
  query: nonEmptyString,
  /** Page size. */
  limit: nonNegativeInteger.optional(),
});
export type SearchEntitiesInput = z.input<typeof searchEntitiesInput>;

export const searchEntitiesOperation = defineOperation({
  id: 'searchEntities',
  summary: 'Search entities, organizations or wallets',
  api: 'evm',
  method: 'GET',
  path: '/entities/search',
  input: searchEntitiesInput,
  fields: { query: 'query', limit: 'query' },
  response: searchEntitiesResponseSchema,
  idempotent: true,
});

/** Entities, labelled addresses and categories that match a text. */
export function searchEntities(
  client: Client,
  input: SearchEntitiesInput,
  options?: CallOptions,
): Promise<SearchEntitiesResponse> {
  return runOperation(client, searchEntitiesOperation, input, options);
}
