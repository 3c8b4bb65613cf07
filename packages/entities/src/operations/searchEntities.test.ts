import { type Client, inputFromRequest, ValidationError, validateInput } from '@blockwire/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { binanceSummary } from '../fixtures.js';
import { API_KEY, clientFor, startServer, type TestServer } from '../test-support.js';
import { searchEntities, searchEntitiesOperation } from './searchEntities.js';

const fullBody = {
  result: {
    entities: [binanceSummary],
    addresses: [
      {
        address: '0x28c6c06298d514db089934071355e5743bf21d60',
        chain: 'eth',
        is_multi_chain: false,
        primary_label: 'Binance 14',
        entity: { name: 'Binance', id: 'binance' },
      },
    ],
    categories: [{ name: 'Exchanges', id: 'exchanges' }],
  },
  page: 0,
  page_size: 10,
};

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startServer(() => ({ body: fullBody }));
  client = clientFor(server);
});
afterEach(() => {
  server.requests.length = 0;
  server.respond = () => ({ body: fullBody });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('searchEntities', () => {
  it('GETs the search with query and limit', async () => {
    await searchEntities(client, { query: 'binance hot', limit: 5 });
    const [request] = server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe('/api/v2.2/entities/search');
    expect(request!.query).toEqual({ query: ['binance hot'], limit: ['5'] });
    expect(request!.url).toBe('/api/v2.2/entities/search?query=binance%20hot&limit=5');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
  });

  it('leaves limit out unless given', async () => {
    await searchEntities(client, { query: 'uniswap' });
    expect(server.requests[0]!.query).toEqual({ query: ['uniswap'] });
  });

  it.each([
    ['query', {}],
    ['query', { query: '' }],
    ['query', { query: ' ' }],
    ['limit', { query: 'x', limit: -1 }],
    ['limit', { query: 'x', limit: 2.5 }],
    ['limit', { query: 'x', limit: 'ten' }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await searchEntities(client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toContain(field);
    expect(server.requests).toHaveLength(0);
  });

  it('accepts limit 0', async () => {
    await searchEntities(client, { query: 'x', limit: 0 });
    expect(server.requests[0]!.query.limit).toEqual(['0']);
  });

  it('parses a full result and exposes page and pageSize as numbers', async () => {
    server.respond = () => ({ body: { ...fullBody, page: '1', page_size: '10', cursor: null } });
    expect(await searchEntities(client, { query: 'binance' })).toEqual({
      result: fullBody.result,
      page: 1,
      pageSize: 10,
      cursor: null,
    });
  });

  it('parses a minimal result: missing lists read as empty', async () => {
    server.respond = () => ({ body: { result: {} } });
    expect(await searchEntities(client, { query: 'nothing' })).toEqual({
      result: { entities: [], addresses: [], categories: [] },
      page: undefined,
      pageSize: undefined,
    });
  });

  it('requires result', async () => {
    server.respond = () => ({ body: { page: 0, page_size: 10 } });
    await expect(searchEntities(client, { query: 'x' })).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: expect.stringContaining('result'),
    });
  });

  it('validates a request as the emulator receives it', () => {
    const raw = inputFromRequest(searchEntitiesOperation, {
      params: {},
      query: { query: 'binance', limit: '3' },
      body: undefined,
    });
    expect(validateInput(searchEntitiesOperation.input, raw)).toEqual({ query: 'binance', limit: 3 });
  });
});
