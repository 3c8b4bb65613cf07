import { type Client, inputFromRequest, ValidationError, validateInput } from '@blockwire/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exchangesCategory } from '../fixtures.js';
import { API_KEY, clientFor, startServer, type TestServer } from '../test-support.js';
import { getEntityCategories, getEntityCategoriesOperation } from './getEntityCategories.js';

const fullBody = {
  result: [exchangesCategory, { name: 'DeFi', id: 'defi', total_entities: 1280 }],
  page: 0,
  page_size: 2,
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

describe('getEntityCategories', () => {
  it('GETs the categories with limit', async () => {
    await getEntityCategories(client, { limit: 2 });
    const [request] = server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('/api/v2.2/entities/categories?limit=2');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
  });

  it('works without input', async () => {
    await getEntityCategories(client);
    expect(server.requests[0]!.url).toBe('/api/v2.2/entities/categories');
  });

  it.each([
    ['limit', { limit: -5 }],
    ['limit', { limit: 0.5 }],
    ['limit', { limit: '1e3' }],
    ['page', { page: 2 }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await getEntityCategories(client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
    expect(server.requests).toHaveLength(0);
  });

  it('parses a full listing, page strings as numbers, unknown fields kept', async () => {
    server.respond = () => ({
      body: { ...fullBody, page: '3', page_size: '2', result: [{ ...exchangesCategory, color: 'blue' }] },
    });
    expect(await getEntityCategories(client, {})).toEqual({
      result: [{ ...exchangesCategory, color: 'blue' }],
      page: 3,
      pageSize: 2,
    });
  });

  it('parses a minimal listing', async () => {
    server.respond = () => ({ body: { result: [] } });
    expect(await getEntityCategories(client)).toEqual({ result: [], page: undefined, pageSize: undefined });
  });

  it.each([
    ['result', { page: 0 }],
    ['page', { result: [], page: 'first' }],
    ['result.0.total_entities', { result: [{ id: 'x', total_entities: 'many' }] }],
  ])('reports a broken %s as a ResponseValidationError', async (field, body) => {
    server.respond = () => ({ body });
    await expect(getEntityCategories(client)).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: expect.stringContaining(field),
    });
  });

  it('validates a request as the emulator receives it', () => {
    const raw = inputFromRequest(getEntityCategoriesOperation, {
      params: {},
      query: { limit: '25' },
      body: undefined,
    });
    expect(validateInput(getEntityCategoriesOperation.input, raw)).toEqual({ limit: 25 });
  });
});
