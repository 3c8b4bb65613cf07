import { defineEndpoint, nonEmptyString, nonNegativeInteger, withMeta } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { searchEntitiesResponseSchema } from '../schemas.js';

export const searchEntitiesInput = z.strictObject({
  query: withMeta(nonEmptyString, {
    description: 'The text to look for in entity names, address labels and categories.',
    examples: ['binance'],
  }),
  limit: z.optional(withMeta(nonNegativeInteger, { description: 'The most results to return.' })),
});
export type SearchEntitiesInput = z.input<typeof searchEntitiesInput>;

export const searchEntitiesEndpoint = defineEndpoint({
  id: 'searchEntities',
  resource: 'entity',
  action: 'search',
  displayName: 'Search Entities',
  summary: 'Search entities, labelled addresses and categories by text',
  examples: [
    {
      input: { query: 'binance', limit: 5 },
      response: {
        result: {
          entities: [
            {
              name: 'Binance',
              id: 'binance',
              bio: 'Binance is the largest centralized exchange by spot volume.',
              website: 'https://www.binance.com',
              type: 'exchange',
            },
          ],
          addresses: [
            {
              address: '0x28c6c06298d514db089934071355e5743bf21d60',
              chain: 'eth',
              is_multi_chain: true,
              primary_label: 'Binance 14',
              entity: { name: 'Binance', id: 'binance' },
            },
          ],
          categories: [],
        },
        page: 0,
        page_size: 5,
      },
    },
  ],
  api: 'evm',
  method: 'GET',
  path: '/entities/search',
  input: searchEntitiesInput,
  fields: { query: 'query', limit: 'query' },
  response: searchEntitiesResponseSchema,
  idempotent: true,
});

/** Entities, labelled addresses and categories that match a text. */
export const searchEntities = searchEntitiesEndpoint.call;
