import { ValidationError, validateInput } from '@blockwire/core';
import { inputFromRequest, matchPath } from '@blockwire/core/internal';
import { API_KEY, useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import { binanceSummary } from '../fixtures.js';
import { getEntitiesByCategoryOperation } from './definitions.js';
import { getEntitiesByCategory } from './getEntitiesByCategory.js';

const fullBody = {
  result: [
    { ...binanceSummary, total_addresses: 312 },
    {
      name: 'Coinbase',
      id: 'coinbase',
      logo: 'https://logo.example/coinbase.png',
      bio: 'US exchange',
      description: 'Coinbase is a US cryptocurrency exchange.',
      website: 'https://www.coinbase.com',
      twitter: 'https://twitter.com/coinbase',
      type: 'exchange',
      total_addresses: 118,
    },
  ],
  page: '2',
  page_size: '2',
};

const t = useServer(() => ({ body: fullBody }));

describe('getEntitiesByCategory', () => {
  it('GETs the category with page and limit as query parameters', async () => {
    await getEntitiesByCategory(t.client, { categoryId: 'exchanges', page: 2, limit: 2 });
    const [request] = t.server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe('/api/v2.2/entities/categories/exchanges');
    expect(request!.query).toEqual({ page: ['2'], limit: ['2'] });
    expect(request!.headers['x-api-key']).toBe(API_KEY);
  });

  it('sends only the path when no page or limit is given, with the id encoded', async () => {
    await getEntitiesByCategory(t.client, { categoryId: 'layer 2 & rollups' });
    expect(t.server.requests[0]!.url).toBe('/api/v2.2/entities/categories/layer%202%20%26%20rollups');
  });

  it.each([
    ['categoryId', {}],
    ['categoryId', { categoryId: '' }],
    ['categoryId', { categoryId: '.' }],
    ['page', { categoryId: 'x', page: -1 }],
    ['page', { categoryId: 'x', page: 1.5 }],
    ['page', { categoryId: 'x', page: 'next' }],
    ['limit', { categoryId: 'x', limit: -1 }],
    ['limit', { categoryId: 'x', limit: '5.5' }],
    ['cursor', { categoryId: 'x', cursor: 'abc' }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await getEntitiesByCategory(t.client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });

  it('parses a full page: page strings become numbers, unknown fields are kept', async () => {
    t.server.respond = () => ({ body: { ...fullBody, total: 412 } });
    expect(await getEntitiesByCategory(t.client, { categoryId: 'exchanges' })).toEqual({
      result: fullBody.result,
      page: 2,
      pageSize: 2,
      total: 412,
    });
  });

  it('accepts page numbers sent as numbers too', async () => {
    t.server.respond = () => ({ body: { ...fullBody, page: 0, page_size: 100 } });
    const page = await getEntitiesByCategory(t.client, { categoryId: 'exchanges' });
    expect([page.page, page.pageSize]).toEqual([0, 100]);
  });

  it('parses a minimal page', async () => {
    t.server.respond = () => ({ body: { result: [{ id: 'binance' }] } });
    expect(await getEntitiesByCategory(t.client, { categoryId: 'exchanges' })).toEqual({
      result: [{ id: 'binance' }],
      page: undefined,
      pageSize: undefined,
    });
  });

  it('reads a missing result as an empty page', async () => {
    t.server.respond = () => ({ body: { page: 9, page_size: 2 } });
    expect((await getEntitiesByCategory(t.client, { categoryId: 'exchanges' })).result).toEqual([]);
  });

  it('reports a wrongly typed total_addresses as a ResponseValidationError', async () => {
    t.server.respond = () => ({ body: { result: [{ id: 'x', total_addresses: '12' }] } });
    await expect(getEntitiesByCategory(t.client, { categoryId: 'exchanges' })).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: expect.stringContaining('result.0.total_addresses'),
    });
  });

  it('validates a request as the emulator receives it', () => {
    const params = matchPath(getEntitiesByCategoryOperation, '/entities/categories/exchanges');
    const raw = inputFromRequest(getEntitiesByCategoryOperation, {
      params: params!,
      query: { page: '4', limit: '20' },
      body: undefined,
    });
    expect(validateInput(getEntitiesByCategoryOperation.input, raw)).toEqual({
      categoryId: 'exchanges',
      page: 4,
      limit: 20,
    });
  });
});
