import { ValidationError } from '@blockwire/core';
import type { RecordedRequest } from '@blockwire/testing';
import { STREAMS_BASE_PATH, useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import {
  actions,
  iterateBitcoinStreamAddresses,
  iterateBitcoinStreams,
  iterateBitcoinStreamXpubs,
} from '../operations.js';
import { EXAMPLE_STREAM_ID, exampleStream, exampleXpub } from './examples.js';

const t = useServer();

/** A cursor list of `items`, `limit` a page, like the service's; `ignoresCursor` always answers the first page. */
function cursorList(items: unknown[], { ignoresCursor = false } = {}) {
  return (request: RecordedRequest) => {
    const limit = Number(request.query.limit?.[0] ?? 100);
    const offset = ignoresCursor ? 0 : Number(request.query.cursor?.[0]?.replace('at-', '') ?? 0);
    const result = items.slice(offset, offset + limit);
    const next = offset + limit;
    // A service that ignores the cursor still hands out fresh ones.
    const cursor = ignoresCursor ? `at-${limit}-${request.query.cursor?.[0] ?? ''}` : `at-${next}`;
    return {
      body: { total: items.length, result, ...(next < items.length || ignoresCursor ? { cursor } : {}) },
    };
  };
}

const streams = Array.from({ length: 5 }, (_, i) => ({ ...exampleStream, id: `stream-${i}` }));
const addresses = Array.from({ length: 5 }, (_, i) => ({ address: `bc1q-address-${i}` }));
const xpubs = Array.from({ length: 5 }, (_, i) => ({ ...exampleXpub, id: `xpub-${i}` }));

const iterators = [
  {
    name: 'iterateBitcoinStreams',
    path: '/streams/bitcoin',
    items: streams,
    walk: (input: { limit?: number }, options?: { maxPages?: number }) =>
      iterateBitcoinStreams(t.client, input, options),
  },
  {
    name: 'iterateBitcoinStreamAddresses',
    path: `/streams/bitcoin/${EXAMPLE_STREAM_ID}/address`,
    items: addresses,
    walk: (input: { limit?: number }, options?: { maxPages?: number }) =>
      iterateBitcoinStreamAddresses(t.client, { id: EXAMPLE_STREAM_ID, ...input }, options),
  },
  {
    name: 'iterateBitcoinStreamXpubs',
    path: `/streams/bitcoin/${EXAMPLE_STREAM_ID}/xpub`,
    items: xpubs,
    walk: (input: { limit?: number }, options?: { maxPages?: number }) =>
      iterateBitcoinStreamXpubs(t.client, { id: EXAMPLE_STREAM_ID, ...input }, options),
  },
];

async function collect(iterator: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe.each(iterators)('$name', ({ name, path, items, walk }) => {
  it('yields every record of every page, following the cursors', async () => {
    t.server.respond = cursorList(items);
    expect(await collect(walk({ limit: 2 }))).toEqual(items);
    expect(t.server.requests.map((r) => [r.path, r.query])).toEqual([
      [`${STREAMS_BASE_PATH}${path}`, { limit: ['2'] }],
      [`${STREAMS_BASE_PATH}${path}`, { limit: ['2'], cursor: ['at-2'] }],
      [`${STREAMS_BASE_PATH}${path}`, { limit: ['2'], cursor: ['at-4'] }],
    ]);
  });

  it('stops after 2 requests, yielding nothing twice, when the service ignores the cursor', async () => {
    t.server.respond = cursorList(items, { ignoresCursor: true });
    expect(await collect(walk({ limit: 2 }))).toEqual(items.slice(0, 2));
    expect(t.server.requests).toHaveLength(2);
  });

  it('stops after maxPages pages', async () => {
    t.server.respond = cursorList(items);
    expect(await collect(walk({ limit: 1 }, { maxPages: 3 }))).toEqual(items.slice(0, 3));
    expect(t.server.requests).toHaveLength(3);
  });

  it('refuses a cursor in its input at once, naming itself, before any request', () => {
    let error: unknown;
    try {
      walk({ cursor: 'x' } as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/cursor/);
    expect((error as ValidationError).operation).toBe(name);
    expect(t.server.requests).toHaveLength(0);
  });
});

it('every paged operation of the package has an iterator', () => {
  const paged = actions.filter((action) => action.operation.paging).map((action) => action.operation.id);
  expect(paged.map((id) => id.replace(/^list/, 'iterate')).sort()).toEqual(
    iterators.map((i) => i.name).sort(),
  );
});
