/** Every function of @blockwire/entities against the emulator, as a user would call it. */
import { NotFoundError } from '@blockwire/core';
import {
  getEntitiesByCategory,
  getEntity,
  getEntityCategories,
  iterateEntitiesByCategory,
  searchEntities,
} from '@blockwire/entities';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './test-support.js';

const t = useEmulator();

describe('entities SDK against the emulator', () => {
  it('getEntity returns an entity with its labelled addresses; an unknown id is a NotFoundError', async () => {
    const binance = await getEntity(t.client, { entityId: 'binance' });
    expect(binance).toMatchObject({ id: 'binance', name: 'Binance', type: 'exchange' });
    expect(binance.addresses?.map((a) => a.address)).toContain('0x28c6c06298d514db089934071355e5743bf21d60');
    await expect(getEntity(t.client, { entityId: 'nobody' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('searchEntities finds entities, addresses and categories', async () => {
    const found = await searchEntities(t.client, { query: 'exchange', limit: 20 });
    expect(found.result.categories.map((c) => c.id)).toEqual(['exchanges']);
    expect(found.result.entities.map((e) => e.id)).toEqual(
      expect.arrayContaining(['binance', 'coinbase', 'uniswap']),
    );
    expect(found.pageSize).toBe(20);
    const byAddress = await searchEntities(t.client, { query: '0x71660c4005ba85c37ccec55d0c4493e66fe775d3' });
    expect(byAddress.result.addresses[0]?.entity).toEqual({ name: 'Coinbase', id: 'coinbase' });
  });

  it('getEntityCategories lists the categories with their counts', async () => {
    const categories = await getEntityCategories(t.client, { limit: 100 });
    expect(categories.result.length).toBeGreaterThanOrEqual(8);
    expect(categories.result.find((c) => c.id === 'exchanges')?.total_entities).toBeGreaterThanOrEqual(3);
    const limited = await getEntityCategories(t.client, { limit: 2 });
    expect(limited.result).toHaveLength(2);
  });

  it('getEntitiesByCategory pages, and iterateEntitiesByCategory walks every page', async () => {
    const first = await getEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 });
    expect(first.result).toHaveLength(5);
    expect(first.pageSize).toBe(5);
    const second = await getEntitiesByCategory(t.client, {
      categoryId: 'exchanges',
      limit: 5,
      page: (first.page ?? 0) + 1,
    });
    expect(second.result[0]?.id).not.toBe(first.result[0]?.id);
    const all = [];
    for await (const entity of iterateEntitiesByCategory(t.client, { categoryId: 'exchanges', limit: 5 }))
      all.push(entity.id);
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
    await expect(getEntitiesByCategory(t.client, { categoryId: 'nothing-here' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
