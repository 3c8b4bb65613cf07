import { NotFoundError, ResponseValidationError, ValidationError, validateInput } from '@blockwire/core';
import { inputFromRequest, matchPath } from '@blockwire/core/internal';
import { API_KEY, useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import { binanceEntity } from '../fixtures.js';
import { getEntityOperation } from './definitions.js';
import { getEntity } from './getEntity.js';

const t = useServer(() => ({ body: binanceEntity }));

describe('getEntity', () => {
  it('GETs the entity by id with the key header and nothing else', async () => {
    await getEntity(t.client, { entityId: 'binance' });
    expect(t.server.requests).toHaveLength(1);
    const [request] = t.server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('/api/v2.2/entities/binance');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
    expect(request!.body).toBe('');
  });

  it('encodes the id as one path segment', async () => {
    await getEntity(t.client, { entityId: 'a b:c+d' });
    expect(t.server.requests[0]!.url).toBe('/api/v2.2/entities/a%20b%3Ac%2Bd');
  });

  it.each([
    ['entityId', {}],
    ['entityId', { entityId: '' }],
    ['entityId', { entityId: '   ' }],
    ['entityId', { entityId: 42 }],
    ['entityId', { entityId: '..' }],
    ['entityId', { entityId: '%2e%2e' }],
    ['entityId', { entityId: 'a/../b' }],
    ['entityId', { entityId: 'a\uD800' }],
    ['name', { entityId: 'binance', name: 'Binance' }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await getEntity(t.client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });

  it('parses a full entity with its addresses, keeping unknown fields', async () => {
    t.server.respond = () => ({ body: { ...binanceEntity, total_addresses: 2, slug: 'binance' } });
    expect(await getEntity(t.client, { entityId: 'binance' })).toEqual({
      ...binanceEntity,
      total_addresses: 2,
      slug: 'binance',
    });
  });

  it('parses a minimal entity', async () => {
    t.server.respond = () => ({ body: { id: 'binance' } });
    expect(await getEntity(t.client, { entityId: 'binance' })).toEqual({ id: 'binance' });
  });

  it('reports a wrongly typed field as a ResponseValidationError', async () => {
    t.server.respond = () => ({ body: { id: 'binance', addresses: [{ additional_labels: ['flat'] }] } });
    const error = await getEntity(t.client, { entityId: 'binance' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain('addresses.0.additional_labels.0');
  });

  it('maps a 404 to NotFoundError', async () => {
    t.server.respond = () => ({ status: 404, body: { message: 'Entity not found' } });
    await expect(getEntity(t.client, { entityId: 'nobody' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('validates a request as the emulator receives it', () => {
    const params = matchPath(getEntityOperation, '/entities/uniswap%20labs');
    const raw = inputFromRequest(getEntityOperation, { params: params!, query: {}, body: undefined });
    expect(validateInput(getEntityOperation.input, raw)).toEqual({ entityId: 'uniswap labs' });
  });
});
