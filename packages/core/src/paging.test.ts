import { describe, expect, it } from 'vitest';
import { chunk, mapInChunks, mapWithConcurrency, paginate } from './paging.js';

describe('paginate', () => {
  it('walks page numbers until a short page, fetching lazily', async () => {
    const fetched: number[] = [];
    const pages = [[1, 2], [3, 4], [5]];
    const iterator = paginate({
      first: 0,
      fetchPage: async (page: number) => {
        fetched.push(page);
        return { items: pages[page] ?? [] };
      },
      items: (page) => page.items,
      next: (page, token) => (page.items.length < 2 ? undefined : token + 1),
    });
    const first = await iterator.next();
    expect(first.value).toBe(1);
    expect(fetched).toEqual([0]);
    const rest: number[] = [];
    for await (const item of iterator) rest.push(item);
    expect(rest).toEqual([2, 3, 4, 5]);
    expect(fetched).toEqual([0, 1, 2]);
  });

  it('follows cursors and stops at maxPages', async () => {
    const seen: (string | undefined)[] = [];
    const items: number[] = [];
    for await (const item of paginate({
      first: undefined as string | undefined,
      fetchPage: async (cursor) => {
        seen.push(cursor);
        return { result: [seen.length], cursor: `c${seen.length}` };
      },
      items: (page) => page.result,
      next: (page) => page.cursor,
      maxPages: 3,
    })) {
      items.push(item);
    }
    expect(items).toEqual([1, 2, 3]);
    expect(seen).toEqual([undefined, 'c1', 'c2']);
  });
});

describe('chunking', () => {
  it('splits into chunks of at most n', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 3)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });

  it('keeps input order with bounded concurrency', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([50, 10, 30, 0, 20], 2, async (delay, index) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running--;
      return index;
    });
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('joins chunk results in input order', async () => {
    const calls: number[][] = [];
    const out = await mapInChunks([1, 2, 3, 4, 5, 6, 7], { size: 3, concurrency: 3 }, async (part) => {
      calls.push(part);
      await new Promise((resolve) => setTimeout(resolve, 10 - part.length));
      return part.map((n) => n * 10);
    });
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(calls.map((c) => c.length).sort()).toEqual([1, 3, 3]);
  });

  it('rejects when one call fails', async () => {
    await expect(
      mapWithConcurrency([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
  });
});
