import { ValidationError } from '@blockwire/core';
import type { RecordedRequest } from '@blockwire/testing';
import { useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import { iterateEntitiesByCategory } from './iterateEntitiesByCategory.js';
import type { EntitySummary } from './schemas.js';

const entities = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `entity-${i}`, name: `Entity ${i}`, total_addresses: i }));

interface CategoryService {
  total: number;
  /** Number of the first page (0 or 1). */
  firstPage?: number;
  defaultSize?: number;
  /** Answers every request with the first page. */
  ignoresPage?: boolean;
  /** Leaves `page` and `page_size` out of the envelope. */
  silentEnvelope?: boolean;
}

/** A category listing like the service's: pages of `limit` items, page numbers sent as strings. */
function category({ total, firstPage = 0, defaultSize = 10, ignoresPage, silentEnvelope }: CategoryService) {
  const all = entities(total);
  return (request: RecordedRequest) => {
    const size = Number(request.query.limit?.[0] ?? defaultSize);
    const asked = request.query.page === undefined || ignoresPage ? firstPage : Number(request.query.page[0]);
    const offset = (asked - firstPage) * size;
    const result = all.slice(offset, offset + size);
    return {
      body: silentEnvelope ? { result } : { result, page: String(asked), page_size: String(size) },
    };
  };
}

async function collect(iterator: AsyncIterable<EntitySummary>): Promise<EntitySummary[]> {
  const items: EntitySummary[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

const pagesAsked = (requests: RecordedRequest[]) => requests.map((r) => r.query.page?.[0]);

const t = useServer();

describe('iterateEntitiesByCategory', () => {
  it('yields every entity of every page in order and stops at the short last page', async () => {
    t.server.respond = category({ total: 23 });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 }));
    expect(items).toEqual(entities(23));
    expect(pagesAsked(t.server.requests)).toEqual([undefined, '1', '2', '3', '4']);
    for (const request of t.server.requests) {
      expect(request.path).toBe('/api/v2.2/entities/categories/exchanges');
      expect(request.query.limit).toEqual(['5']);
    }
  });

  it('stops at an empty page when the last full page ends the list', async () => {
    t.server.respond = category({ total: 10 });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 }));
    expect(items).toHaveLength(10);
    expect(pagesAsked(t.server.requests)).toEqual([undefined, '1', '2']);
  });

  it('follows the page numbers the service reports (pages counted from 1)', async () => {
    t.server.respond = category({ total: 7, firstPage: 1 });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 3 }));
    expect(items).toEqual(entities(7));
    expect(pagesAsked(t.server.requests)).toEqual([undefined, '2', '3']);
  });

  it('uses the service page size when no limit is given', async () => {
    t.server.respond = category({ total: 25, defaultSize: 10 });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges' }));
    expect(items).toEqual(entities(25));
    expect(t.server.requests.map((r) => r.query.limit)).toEqual([undefined, undefined, undefined]);
  });

  it('starts from startPage', async () => {
    t.server.respond = category({ total: 11 });
    const items = await collect(
      iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 4, startPage: 1 }),
    );
    expect(items).toEqual(entities(11).slice(4));
    expect(pagesAsked(t.server.requests)).toEqual(['1', '2']);
  });

  it('stops, without repeating entities, when the service ignores page', async () => {
    t.server.respond = category({ total: 50, ignoresPage: true });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 }));
    expect(items).toEqual(entities(5));
    expect(t.server.requests).toHaveLength(2);
  });

  it('also detects an ignored page when the envelope has no page number', async () => {
    t.server.respond = category({ total: 50, ignoresPage: true, silentEnvelope: true });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 }));
    expect(items).toEqual(entities(5));
    expect(t.server.requests).toHaveLength(2);
  });

  it('walks pages without page numbers in the envelope until a short page', async () => {
    t.server.respond = category({ total: 12, silentEnvelope: true });
    const items = await collect(iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 }));
    expect(items).toEqual(entities(12));
    expect(pagesAsked(t.server.requests)).toEqual([undefined, '1', '2']);
  });

  it('fetches a page only when the previous one is consumed', async () => {
    t.server.respond = category({ total: 100 });
    const iterator = iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 10 });
    for await (const item of iterator) {
      if (item.id === 'entity-12') break;
    }
    expect(t.server.requests).toHaveLength(2);
  });

  it('passes the signal to every page request', async () => {
    t.server.respond = category({ total: 100 });
    const controller = new AbortController();
    const seen: EntitySummary[] = [];
    const walk = async () => {
      for await (const item of iterateEntitiesByCategory(
        t.client,
        { categoryId: 'exchanges', limit: 10 },
        { signal: controller.signal },
      )) {
        seen.push(item);
        if (seen.length === 10) controller.abort(new Error('enough'));
      }
    };
    await expect(walk()).rejects.toThrow('enough');
    expect(seen).toHaveLength(10);
    expect(t.server.requests).toHaveLength(1);
  });

  it('stops after maxPages pages', async () => {
    t.server.respond = category({ total: 100 });
    const items = await collect(
      iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 10 }, { maxPages: 3 }),
    );
    expect(items).toHaveLength(30);
    expect(t.server.requests).toHaveLength(3);
  });

  it.each([
    ['categoryId', {}],
    ['categoryId', { categoryId: '' }],
    ['limit', { categoryId: 'x', limit: -1 }],
    ['startPage', { categoryId: 'x', startPage: 'two' }],
    ['page', { categoryId: 'x', page: 2 }],
  ])('rejects a bad %s at once, before any request', (field, input) => {
    let error: unknown;
    try {
      iterateEntitiesByCategory(t.client, input as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });
});
