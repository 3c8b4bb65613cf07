import type { Client } from '@blockwire/core/operations';
import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS, type NodeAction } from '../nodes/Blockwire/actions';
import { collectPages } from '../nodes/Blockwire/paging';

function actionOf(resource: string, operation: string): NodeAction {
  const action = NODE_ACTIONS.find(
    (candidate) => candidate.resource === resource && candidate.action === operation,
  );
  if (!action) throw new Error(`no action ${resource}.${operation}`);
  return action;
}

/** The action's paging and fields, with `call` answering from `pageOf` and counting the calls. */
function served(
  resource: string,
  operation: string,
  pageOf: (request: Record<string, unknown>, call: number) => Record<string, unknown>,
) {
  const action = actionOf(resource, operation);
  const requests: Record<string, unknown>[] = [];
  const fake = {
    paging: action.paging,
    fields: action.fields,
    call: async (_client: unknown, request: Record<string, unknown>) => {
      requests.push(request);
      if (requests.length > 50) throw new Error('looping: 50 calls for one list');
      return pageOf(request, requests.length - 1);
    },
  };
  return { action: fake, requests };
}

const client = {} as Client;
/** The page size asked, or the service's own (20) when none was sent. */
const sizeOf = (request: Record<string, unknown>) => (request.limit as number | undefined) ?? 20;
const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `entity-${from + index}` }));

describe('Return All against a service that ignores the page (issue 21, point 13)', () => {
  it('a page number the service ignores: the repeated page ends the list, its entries once', async () => {
    const { action, requests } = served('entity', 'getByCategory', (request) => ({
      result: entries(0, sizeOf(request)),
      page: 0,
    }));
    const all = await collectPages(
      action,
      client,
      { categoryId: 'exchanges' },
      { returnAll: true, limit: 50 },
    );
    expect(requests).toHaveLength(2);
    expect(new Set(all.map((entry) => (entry as { id: string }).id)).size).toBe(all.length);
    expect(all).toEqual(entries(0, sizeOf(requests[0]!)));
  });

  it('a Limit past one page stops on the repeat as well, with what it found', async () => {
    const { action, requests } = served('entity', 'getByCategory', () => ({ result: entries(0, 100) }));
    const some = await collectPages(
      action,
      client,
      { categoryId: 'exchanges' },
      { returnAll: false, limit: 500 },
    );
    expect(requests.length).toBeLessThanOrEqual(2);
    expect(some).toEqual(entries(0, 100));
  });

  it('a page that brings nothing new (pages alternating A, B, A…) makes no progress and ends the list', async () => {
    const { action, requests } = served('entity', 'getByCategory', (request, call) => ({
      result: entries((call % 2) * 1000, sizeOf(request)),
    }));
    const all = await collectPages(
      action,
      client,
      { categoryId: 'exchanges' },
      { returnAll: true, limit: 50 },
    );
    expect(requests).toHaveLength(3);
    expect(new Set(all.map((entry) => (entry as { id: string }).id)).size).toBe(all.length);
  });

  it('a cursor that changes while the entries do not: the repeated page ends the list', async () => {
    const { action, requests } = served('bitcoinStream', 'getMany', (_request, call) => ({
      result: entries(0, 10),
      cursor: `next-${call}`,
    }));
    const all = await collectPages(action, client, {}, { returnAll: true, limit: 50 });
    expect(requests).toHaveLength(2);
    expect(all).toEqual(entries(0, 10));
  });

  it('a service that pages properly is followed to its end: a page shorter than the first is the last', async () => {
    const { action, requests } = served('entity', 'getByCategory', (request) => {
      const page = request.page as number;
      const size = sizeOf(request);
      const count = page < 3 ? size : page === 3 ? 7 : 0;
      return { result: entries(page * size, count) };
    });
    const all = await collectPages(
      action,
      client,
      { categoryId: 'exchanges' },
      { returnAll: true, limit: 50 },
    );
    expect(requests).toHaveLength(4);
    expect(all).toHaveLength(3 * sizeOf(requests[0]!) + 7);
  });
});
