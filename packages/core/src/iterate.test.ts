import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import type { Client, ClientRequest } from './client-types.js';
import { ValidationError } from './errors.js';
import { iterateOperation } from './iterate.js';
import { defineOperation } from './operation.js';

const listThings = defineOperation({
  id: 'listThings',
  resource: 'thing',
  action: 'getManyForIterateTest',
  displayName: 'Get Many Things',
  summary: 'List things, one cursor page at a time',
  paging: {
    style: 'cursor',
    cursorField: 'cursor',
    nextCursor: 'cursor',
    items: 'result',
    limitField: 'limit',
  },
  examples: [{ input: {}, response: { result: [] } }],
  api: 'streams',
  method: 'GET',
  path: '/things/{owner}',
  input: z.strictObject({
    owner: z.string().meta({ description: 'Whose things.' }),
    limit: z.number().int().min(1).optional().meta({ description: 'The most things on one page.' }),
    cursor: z.string().optional().meta({ description: 'The cursor of the previous page.' }),
  }),
  fields: { owner: 'path', limit: 'query', cursor: 'query' },
  response: z.looseObject({ result: z.array(z.number()), cursor: z.string().optional() }),
  idempotent: true,
});

/** A client whose service answers `answer(request)`, recording what was sent. */
function fakeClient(answer: (request: ClientRequest) => unknown): Client & { sent: ClientRequest[] } {
  const sent: ClientRequest[] = [];
  return {
    sent,
    baseUrls: {} as Client['baseUrls'],
    timeoutMs: 1000,
    retry: {} as Client['retry'],
    maxResponseBytes: 1_000_000,
    async request(request) {
      sent.push(request);
      return { status: 200, headers: {}, data: answer(request), attempts: 1 };
    },
    redact: (text) => text.replaceAll('secret-key', '***'),
    close: async () => {},
  };
}

async function collect(iterator: AsyncIterable<number>): Promise<number[]> {
  const items: number[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('iterateOperation', () => {
  it('walks an operation by its paging metadata, sending the cursor each answer gives', async () => {
    const pages: Record<string, { result: number[]; cursor?: string }> = {
      first: { result: [1, 2], cursor: 'p2' },
      p2: { result: [3] },
    };
    const client = fakeClient((request) => pages[(request.query?.cursor as string | undefined) ?? 'first']);
    const items = await collect(
      iterateOperation(client, listThings, { owner: 'me', limit: 2 }, {}, 'iterateThings'),
    );
    expect(items).toEqual([1, 2, 3]);
    expect(client.sent.map((r) => [r.path, r.query])).toEqual([
      ['/things/me', { limit: 2 }],
      ['/things/me', { limit: 2, cursor: 'p2' }],
    ]);
  });

  it.each([
    ['owner', { limit: 2 }, undefined],
    ['limit', { owner: 'me', limit: 0 }, undefined],
    ['options.maxPages', { owner: 'me' }, { maxPages: 0 }],
    ['options.signl', { owner: 'me' }, { signl: 1 }],
  ])('checks %s at once, naming the iterator, before any request', (field, input, options) => {
    const client = fakeClient(() => ({ result: [] }));
    let error: unknown;
    try {
      iterateOperation(client, listThings, input, options as never, 'iterateThings');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
    expect(client.sent).toHaveLength(0);
  });

  it('masks the API key in an input error', () => {
    const client = fakeClient(() => ({ result: [] }));
    expect(() =>
      iterateOperation(client, listThings, { owner: 'me', 'secret-key': 1 } as never, {}, 'iterateThings'),
    ).toThrow(/\*\*\*/);
  });

  it('refuses an operation that does not page', () => {
    const { paging: _, ...rest } = listThings;
    expect(() =>
      iterateOperation(
        fakeClient(() => ({})),
        rest as never,
        { owner: 'me' },
        {},
        'x',
      ),
    ).toThrow(/no paging/);
  });
});
