import { defineEndpoint, nonNegativeInteger, withMeta } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { entitiesByCategoryResponseSchema, pathSegmentId } from '../schemas.js';

export const getEntitiesByCategoryInput = z.strictObject({
  categoryId: withMeta(pathSegmentId, {
    title: 'Category ID',
    description: 'The category’s id, as Get Entity Categories lists it (e.g. exchanges).',
    examples: ['exchanges'],
  }),
  page: z.optional(
    withMeta(nonNegativeInteger, {
      description: 'Which page, counting from 0; left out, the service’s first page.',
    }),
  ),
  limit: z.optional(withMeta(nonNegativeInteger, { description: 'The most entities on one page.' })),
});
export type GetEntitiesByCategoryInput = z.input<typeof getEntitiesByCategoryInput>;

/**
 * The contract names no query parameters for this call but answers with a page envelope, so
 * `page` and `limit` are sent as query parameters, the way the other listings take them.
 */
export const getEntitiesByCategoryEndpoint = defineEndpoint({
  id: 'getEntitiesByCategory',
  resource: 'entity',
  action: 'getByCategory',
  displayName: 'Get Entities by Category',
  summary: 'List the entities of a category, one page at a time',
  paging: {
    style: 'page',
    pageField: 'page',
    limitField: 'limit',
    items: 'result',
    reportedPage: 'page',
    reportedPageSize: 'pageSize',
  },
  examples: [
    {
      input: { categoryId: 'exchanges', limit: 1 },
      response: {
        result: [
          {
            ...{
              name: 'Binance',
              id: 'binance',
              bio: 'Binance is the largest centralized exchange by spot volume.',
              website: 'https://www.binance.com',
              type: 'exchange',
            },
            total_addresses: 6,
          },
        ],
        page: 0,
        page_size: 1,
      },
    },
  ],
  api: 'evm',
  method: 'GET',
  path: '/entities/categories/{categoryId}',
  input: getEntitiesByCategoryInput,
  fields: { categoryId: 'path', page: 'query', limit: 'query' },
  response: entitiesByCategoryResponseSchema,
  idempotent: true,
});

/** One page of the entities in a category. To walk every page, use `iterateEntitiesByCategory`. */
export const getEntitiesByCategory = getEntitiesByCategoryEndpoint.call;
