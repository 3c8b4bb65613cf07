import { ValidationError, validateInput } from '@blockwire/core';
import { inputFromRequest } from '@blockwire/core/internal';
import { API_KEY, useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import { binanceSummary } from '../fixtures.js';
import { searchEntitiesOperation } from './definitions.js';
import { searchEntities } from './searchEntities.js';

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

const t = useServer(() => ({ body: fullBody }));

describe('searchEntities', () => {
  it('GETs the search with query and limit', async () => {
    await searchEntities(t.client, { query: 'binance hot', limit: 5 });
    const [request] = t.server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe('/api/v2.2/entities/search');
    expect(request!.query).toEqual({ query: ['binance hot'], limit: ['5'] });
    expect(request!.url).toBe('/api/v2.2/entities/search?query=binance%20hot&limit=5');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
  });

  it('leaves limit out unless given', async () => {
    await searchEntities(t.client, { query: 'uniswap' });
    expect(t.server.requests[0]!.query).toEqual({ query: ['uniswap'] });
  });

  it.each([
    ['query', {}],
    ['query', { query: '' }],
    ['query', { query: ' ' }],
    ['limit', { query: 'x', limit: -1 }],
    ['limit', { query: 'x', limit: 2.5 }],
    ['limit', { query: 'x', limit: 'ten' }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await searchEntities(t.client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });

  it('accepts limit 0', async () => {
    await searchEntities(t.client, { query: 'x', limit: 0 });
    expect(t.server.requests[0]!.query.limit).toEqual(['0']);
  });

  it('parses a full result and exposes page and pageSize as numbers', async () => {
    t.server.respond = () => ({ body: { ...fullBody, page: '1', page_size: '10', cursor: null } });
    expect(await searchEntities(t.client, { query: 'binance' })).toEqual({
      result: fullBody.result,
      page: 1,
      pageSize: 10,
      cursor: null,
    });
  });

  it('parses a minimal result: missing lists read as empty', async () => {
    t.server.respond = () => ({ body: { result: {} } });
    expect(await searchEntities(t.client, { query: 'nothing' })).toEqual({
      result: { entities: [], addresses: [], categories: [] },
      page: undefined,
      pageSize: undefined,
    });
  });

  it('requires result', async () => {
    t.server.respond = () => ({ body: { page: 0, page_size: 10 } });
    await expect(searchEntities(t.client, { query: 'x' })).rejects.toMatchObject({
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
