/** The entity directory: search, one entity with its labelled addresses, categories. */
import {
  type EntityAddress,
  type EntitySummary,
  getEntitiesByCategory,
  getEntity,
  getEntityCategories,
  type SearchAddress,
  searchEntities,
} from '@blockwire/entities';
import * as z from 'zod/v4';
import { searchInput } from '../inputs.js';
import type {
  CategoryPageView,
  CategoryView,
  EntitySummaryView,
  EntityView,
  LabelledAddressView,
  SearchView,
} from '../views.js';
import { defined } from './prices.js';
import { defineRoute, optionalDigits, type RouteContext, text } from './route.js';

const SEARCH_LIMIT = 10;
const CATEGORY_PAGE_SIZE = 12;

function toSummary(entity: EntitySummary): EntitySummaryView {
  return {
    id: entity.id ?? '',
    name: entity.name ?? entity.id ?? 'Unnamed entity',
    ...defined({
      type: entity.type ?? undefined,
      bio: entity.bio ?? undefined,
      totalAddresses: entity.total_addresses ?? undefined,
    }),
  };
}

function toAddress(address: EntityAddress & Partial<Pick<SearchAddress, 'entity'>>): LabelledAddressView {
  const entity = address.entity;
  const extra = address.additional_labels ?? [];
  return {
    address: address.address ?? '',
    labels: [...new Set(extra.flat())],
    ...defined({
      chain: address.chain ?? undefined,
      multiChain: address.is_multi_chain ?? undefined,
      label: address.primary_label ?? undefined,
      entity: entity?.id ? { id: entity.id, name: entity.name ?? entity.id } : undefined,
    }),
  };
}

const toCategory = (category: { id?: string | null; name?: string | null; total_entities?: number | null }) =>
  ({
    id: category.id ?? '',
    name: category.name ?? category.id ?? '',
    ...defined({ totalEntities: category.total_entities ?? undefined }),
  }) satisfies CategoryView;

export function entityRoutes({ backend }: RouteContext) {
  const { client } = backend;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/entities/search',
      input: searchInput,
      subject: ({ query }) => `“${query}”`,
      handle: async ({ query }): Promise<SearchView> => {
        const { result } = await searchEntities(client, { query, limit: SEARCH_LIMIT });
        return {
          query,
          entities: result.entities.map(toSummary),
          addresses: result.addresses.map(toAddress),
          categories: result.categories.map(toCategory),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/entities/entity',
      input: z.strictObject({ id: text(200) }),
      subject: ({ id }) => `the entity “${id}”`,
      handle: async ({ id }): Promise<EntityView> => {
        const entity = await getEntity(client, { entityId: id });
        return {
          ...toSummary(entity),
          addresses: (entity.addresses ?? []).map(toAddress),
          ...defined({
            description: entity.description ?? undefined,
            website: entity.website ?? undefined,
            twitter: entity.twitter ?? undefined,
          }),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/entities/categories',
      input: z.strictObject({}),
      handle: async (): Promise<CategoryView[]> => {
        const { result } = await getEntityCategories(client, { limit: 100 });
        return result.map(toCategory);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/entities/category',
      input: z.strictObject({ id: text(200), page: optionalDigits(6) }),
      subject: ({ id }) => `the category “${id}”`,
      handle: async ({ id, page }): Promise<CategoryPageView> => {
        const asked = Number(page ?? 0);
        const response = await getEntitiesByCategory(client, {
          categoryId: id,
          limit: CATEGORY_PAGE_SIZE,
          ...(page ? { page: asked } : {}),
        });
        const size = response.pageSize ?? CATEGORY_PAGE_SIZE;
        const current = response.page ?? asked;
        // A full page cannot tell whether another follows: the next one is asked for, so the
        // page never offers a "Next" that would only say there is nothing more.
        const full = response.result.length >= size && response.result.length > 0;
        const more =
          full &&
          (
            await getEntitiesByCategory(client, {
              categoryId: id,
              limit: CATEGORY_PAGE_SIZE,
              page: current + 1,
            })
          ).result.length > 0;
        return { categoryId: id, page: current, entities: response.result.map(toSummary), more };
      },
    }),
  ];
}
