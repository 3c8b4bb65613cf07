import { describe, expect, it } from 'vitest';
import type { Paging } from './metadata.js';
import { chunk, mapInChunks, mapWithConcurrency, paginate, walkPages } from './paging.js';

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
  it('stops, without repeating items, when a page comes back the same as the one before', async () => {
    const fetched: number[] = [];
    const items: number[] = [];
    for await (const item of paginate({
      first: 0,
      // A service that ignores the page it is asked for, and always says there is more.
      fetchPage: async (page: number) => {
        fetched.push(page);
        return [1, 2];
      },
      items: (page) => page,
      next: (_page, token) => token + 1,
    })) {
      items.push(item);
    }
    expect(items).toEqual([1, 2]);
    expect(fetched).toEqual([0, 1]);
  });

  it('stops when the next token is one it already asked for (no progress)', async () => {
    const seen: (string | undefined)[] = [];
    const items: number[] = [];
    for await (const item of paginate({
      first: undefined as string | undefined,
      fetchPage: async (cursor) => {
        seen.push(cursor);
        return { result: [seen.length], cursor: seen.length < 3 ? `c${seen.length}` : 'c1' };
      },
      items: (page) => page.result,
      next: (page) => page.cursor,
    })) {
      items.push(item);
    }
    expect(items).toEqual([1, 2, 3]);
    expect(seen).toEqual([undefined, 'c1', 'c2']);
  });

  it('stops at an empty page even when it names a next token', async () => {
    let calls = 0;
    const items: number[] = [];
    for await (const item of paginate({
      first: 0,
      fetchPage: async (page: number) => {
        calls++;
        return page === 0 ? [7] : [];
      },
      items: (page) => page,
      next: (_page, token) => token + 1,
    })) {
      items.push(item);
    }
    expect(items).toEqual([7]);
    expect(calls).toBe(2);
  });

  it('compares pages holding bigints', async () => {
    let calls = 0;
    const items: bigint[] = [];
    for await (const item of paginate({
      first: 0,
      fetchPage: async () => {
        calls++;
        return [1n];
      },
      items: (page) => page,
      next: (_page, token) => token + 1,
    })) {
      items.push(item);
    }
    expect(items).toEqual([1n]);
    expect(calls).toBe(2);
  });
});

describe('walkPages', () => {
  const cursorPaging: Paging = {
    style: 'cursor',
    cursorField: 'cursor',
    nextCursor: 'next',
    items: 'result',
    limitField: 'limit',
  };
  const pagePaging: Paging = {
    style: 'page',
    pageField: 'page',
    items: 'result',
    limitField: 'limit',
    reportedPage: 'page',
    reportedPageSize: 'pageSize',
  };

  async function walk(
    paging: Paging,
    input: Record<string, unknown>,
    answer: (sent: Record<string, unknown>) => unknown,
    maxPages?: number,
  ) {
    const sent: Record<string, unknown>[] = [];
    const items: unknown[] = [];
    for await (const item of walkPages({
      paging,
      input,
      maxPages,
      fetchPage: async (request) => {
        sent.push(request);
        return answer(request);
      },
    })) {
      items.push(item);
    }
    return { sent, items };
  }

  /** A numbered list of `total` items; `ignoresPage` answers every request with the first page. */
  const numbered =
    (total: number, { ignoresPage = false, report = true, first = 0 } = {}) =>
    (sent: Record<string, unknown>) => {
      const size = (sent.limit as number | undefined) ?? 10;
      const page = ignoresPage || sent.page === undefined ? first : (sent.page as number);
      const result = Array.from({ length: total }, (_, i) => i).slice(
        (page - first) * size,
        (page - first + 1) * size,
      );
      return report ? { result, page, pageSize: size } : { result };
    };

  it('follows cursors from the input’s own cursor until an answer has none', async () => {
    const pages: Record<string, { result: number[]; next?: string }> = {
      start: { result: [1, 2], next: 'b' },
      b: { result: [3], next: 'c' },
      c: { result: [4, 5] },
    };
    const { sent, items } = await walk(
      cursorPaging,
      { id: 's', cursor: 'start', limit: 2 },
      (r) => pages[r.cursor as string],
    );
    expect(items).toEqual([1, 2, 3, 4, 5]);
    // A short page with a cursor is not the last: the cursor says more follows.
    expect(sent).toEqual([
      { id: 's', cursor: 'start', limit: 2 },
      { id: 's', cursor: 'b', limit: 2 },
      { id: 's', cursor: 'c', limit: 2 },
    ]);
  });

  it('stops when a service hands back a cursor it already gave (no progress)', async () => {
    const { sent, items } = await walk(cursorPaging, {}, (r) => ({
      result: [r.cursor ?? 'first'],
      next: 'again',
    }));
    expect(items).toEqual(['first', 'again']);
    expect(sent).toHaveLength(2);
  });

  it('stops after two requests when the service ignores the cursor', async () => {
    let n = 0;
    const { sent, items } = await walk(cursorPaging, {}, () => ({ result: [1, 2], next: `fresh-${n++}` }));
    expect(items).toEqual([1, 2]);
    expect(sent).toHaveLength(2);
  });

  it('walks numbered pages until a short one, asking from the first page the service picks', async () => {
    const { sent, items } = await walk(pagePaging, { limit: 3 }, numbered(7));
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sent.map((r) => r.page)).toEqual([undefined, 1, 2]);
  });

  it('follows the page numbers the service reports (pages counted from 1)', async () => {
    const { sent, items } = await walk(pagePaging, { limit: 3 }, numbered(7, { first: 1 }));
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sent.map((r) => r.page)).toEqual([undefined, 2, 3]);
  });

  it('takes the page size the service reports when none is asked for', async () => {
    const { sent, items } = await walk(pagePaging, {}, numbered(25));
    expect(items).toHaveLength(25);
    expect(sent).toHaveLength(3);
  });

  it('stops after two requests when the service ignores page, yielding nothing twice', async () => {
    for (const report of [true, false]) {
      const { sent, items } = await walk(
        pagePaging,
        { limit: 5 },
        numbered(50, { ignoresPage: true, report }),
      );
      expect(items).toEqual([0, 1, 2, 3, 4]);
      expect(sent).toHaveLength(2);
    }
  });

  it('stops after maxPages pages', async () => {
    const { sent, items } = await walk(pagePaging, { limit: 10 }, numbered(100), 3);
    expect(items).toHaveLength(30);
    expect(sent).toHaveLength(3);
  });

  it('reads an answer without the items property as an empty, last page', async () => {
    const { sent, items } = await walk(cursorPaging, {}, () => ({ next: 'x' }));
    expect(items).toEqual([]);
    expect(sent).toHaveLength(1);
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
