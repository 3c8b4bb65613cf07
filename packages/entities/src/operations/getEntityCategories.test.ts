import { ValidationError, validateInput } from '@blockwire/core';
import { inputFromRequest } from '@blockwire/core/internal';
import { API_KEY, useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import { exchangesCategory } from '../fixtures.js';
import { getEntityCategoriesOperation } from './definitions.js';
import { getEntityCategories } from './getEntityCategories.js';

const fullBody = {
  result: [exchangesCategory, { name: 'DeFi', id: 'defi', total_entities: 1280 }],
  page: 0,
  page_size: 2,
};

const t = useServer(() => ({ body: fullBody }));

describe('getEntityCategories', () => {
  it('GETs the categories with limit', async () => {
    await getEntityCategories(t.client, { limit: 2 });
    const [request] = t.server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('/api/v2.2/entities/categories?limit=2');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
  });

  it('works without input', async () => {
    await getEntityCategories(t.client);
    expect(t.server.requests[0]!.url).toBe('/api/v2.2/entities/categories');
  });

  it.each([
    ['limit', { limit: -5 }],
    ['limit', { limit: 0.5 }],
    ['limit', { limit: '1e3' }],
    ['page', { page: 2 }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await getEntityCategories(t.client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });

  it('parses a full listing, page strings as numbers, unknown fields kept', async () => {
    t.server.respond = () => ({
      body: { ...fullBody, page: '3', page_size: '2', result: [{ ...exchangesCategory, color: 'blue' }] },
    });
    expect(await getEntityCategories(t.client, {})).toEqual({
      result: [{ ...exchangesCategory, color: 'blue' }],
      page: 3,
      pageSize: 2,
    });
  });

  it('parses a minimal listing', async () => {
    t.server.respond = () => ({ body: { result: [] } });
    expect(await getEntityCategories(t.client)).toEqual({ result: [], page: undefined, pageSize: undefined });
  });

  it.each([
    ['result', { page: 0 }],
    ['page', { result: [], page: 'first' }],
    ['result.0.total_entities', { result: [{ id: 'x', total_entities: 'many' }] }],
  ])('reports a broken %s as a ResponseValidationError', async (field, body) => {
    t.server.respond = () => ({ body });
    await expect(getEntityCategories(t.client)).rejects.toMatchObject({
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
