import { operations } from '@blockwire/entities/operations';
import { buildEntities, CATEGORY_FIXTURES, type EntityFixture } from '../fixtures/entities.js';
import { defineRoutes, notFound, type Route } from './define.js';

/** Page size when the request gives no `limit`, and the most one page holds. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** Pages are numbered from this value. */
export const FIRST_PAGE = 0;

export function createEntityRoutes(seed: number): Route[] {
  const entities = buildEntities(seed);
  const byId = new Map(entities.map((entity) => [entity.id, entity]));
  const categoryName = (id: string) => CATEGORY_FIXTURES.find((c) => c.id === id)!.name;

  return defineRoutes(operations, {
    getEntity: ({ entityId }) => {
      const entity = byId.get(entityId);
      if (!entity) throw notFound(`Entity not found: ${entityId}`);
      return { ...summary(entity), addresses: entity.addresses };
    },

    searchEntities: (input) => {
      const query = input.query.trim().toLowerCase();
      const size = pageSize(input.limit);
      const matches = (...texts: string[]) => texts.some((text) => text.toLowerCase().includes(query));
      const found = entities.filter((e) => matches(e.id, e.name, e.category, categoryName(e.category)));
      const addresses = entities.flatMap((entity) =>
        entity.addresses
          .filter(
            (a) => a.address.startsWith(query) || matches(a.primary_label, ...a.additional_labels.flat()),
          )
          .map((a) => ({
            address: a.address,
            chain: a.chain,
            is_multi_chain: a.is_multi_chain,
            primary_label: a.primary_label,
            entity: { name: entity.name, id: entity.id },
          })),
      );
      const categories = CATEGORY_FIXTURES.filter((c) => matches(c.id, c.name));
      return {
        result: {
          entities: found.slice(0, size).map(summary),
          addresses: addresses.slice(0, size),
          categories: categories.slice(0, size).map(({ id, name }) => ({ name, id })),
        },
        page: FIRST_PAGE,
        page_size: size,
      };
    },

    getEntityCategories: (input) => {
      const size = pageSize(input.limit);
      return {
        result: CATEGORY_FIXTURES.slice(0, size).map((c) => ({
          name: c.name,
          id: c.id,
          total_entities: entities.filter((e) => e.category === c.id).length,
        })),
        page: FIRST_PAGE,
        page_size: size,
      };
    },

    getEntitiesByCategory: (input) => {
      const { categoryId } = input;
      if (!CATEGORY_FIXTURES.some((c) => c.id === categoryId)) {
        throw notFound(`Category not found: ${categoryId}`);
      }
      const size = pageSize(input.limit);
      const page = input.page ?? FIRST_PAGE;
      const start = Math.max(0, page - FIRST_PAGE) * size;
      const members = entities.filter((e) => e.category === categoryId);
      return {
        result: members
          .slice(start, start + size)
          .map((e) => ({ ...summary(e), total_addresses: e.addresses.length })),
        page,
        page_size: size,
      };
    },
  });
}

function pageSize(limit: number | undefined): number {
  return Math.min(limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
}

function summary(entity: EntityFixture) {
  const { id, name, logo, bio, description, website, twitter, type } = entity;
  return { name, id, logo, bio, description, website, twitter, type };
}
