import { defineEndpoint, nonNegativeInteger, withMeta } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { entityCategoriesResponseSchema } from '../schemas.js';

export const getEntityCategoriesInput = z.strictObject({
  limit: z.optional(withMeta(nonNegativeInteger, { description: 'The most categories to return.' })),
});
export type GetEntityCategoriesInput = z.input<typeof getEntityCategoriesInput>;

export const getEntityCategoriesEndpoint = defineEndpoint({
  id: 'getEntityCategories',
  resource: 'entity',
  action: 'getCategories',
  displayName: 'Get Entity Categories',
  summary: 'List the categories that group entities, with how many entities each holds',
  examples: [
    {
      input: { limit: 2 },
      response: {
        result: [
          { name: 'Exchanges', id: 'exchanges', total_entities: 12 },
          { name: 'Lending', id: 'lending', total_entities: 4 },
        ],
        page: 0,
        page_size: 2,
      },
    },
  ],
  api: 'evm',
  method: 'GET',
  path: '/entities/categories',
  input: getEntityCategoriesInput,
  fields: { limit: 'query' },
  response: entityCategoriesResponseSchema,
  idempotent: true,
});

/** The categories that group entities, with how many entities each holds. */
export const getEntityCategories = getEntityCategoriesEndpoint.call;
