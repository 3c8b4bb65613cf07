import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS } from '../nodes/Blockwire/actions';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { useEmulator } from './support/emulator';
import { runNode } from './support/run-node';

const service = useEmulator();
const node = new Blockwire();

const run = (parameters: IDataObject, count = 1) => runNode(service.emulator, parameters, { count });

/** The parameters shown for one operation, by name. */
function shown(resource: string, operation: string): Map<string, INodeProperties> {
  const properties = node.description.properties.filter((property) => {
    const show = property.displayOptions?.show;
    return show?.resource?.includes(resource) && show.operation?.includes(operation);
  });
  return new Map(properties.map((property) => [property.name, property]));
}

describe('one n8n item per result (issue 21, point 1)', () => {
  it('Get Entity Categories gives one item per category, paired, Limit cutting the list', async () => {
    const all = await run({ resource: 'entity', operation: 'getCategories', returnAll: true });
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((item) => typeof item.json.id === 'string' && 'total_entities' in item.json)).toBe(true);
    expect(all.every((item) => item.json.result === undefined)).toBe(true);
    const two = await run({ resource: 'entity', operation: 'getCategories', returnAll: false, limit: 2 }, 2);
    expect(two.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }]);
    expect(two.slice(0, 2).map((item) => item.json.id)).toEqual(all.slice(0, 2).map((item) => item.json.id));
  });

  it('Search Entities gives one item per hit, each with its kind', async () => {
    const hits = await run({ resource: 'entity', operation: 'search', query: 'binance', returnAll: true });
    const kinds = new Set(hits.map((item) => item.json.kind));
    expect(kinds).toEqual(new Set(['entity', 'address']));
    expect(hits.find((item) => item.json.kind === 'entity')?.json).toMatchObject({ id: 'binance' });
    expect(hits.find((item) => item.json.kind === 'address')?.json).toMatchObject({
      address: expect.any(String),
      entity: { id: 'binance' },
    });
    const categories = await run({
      resource: 'entity',
      operation: 'search',
      query: 'exchange',
      returnAll: true,
    });
    expect(categories.some((item) => item.json.kind === 'category' && item.json.id === 'exchanges')).toBe(
      true,
    );
    const three = await run({
      resource: 'entity',
      operation: 'search',
      query: 'binance',
      returnAll: false,
      limit: 3,
    });
    expect(three).toHaveLength(Math.min(3, hits.length));
  });

  it('every list operation has Return All and a Limit of 50, and its size field is not offered twice', () => {
    const lists = NODE_ACTIONS.filter(
      (action) =>
        action.paging ||
        (action.resource === 'entity' && ['search', 'getCategories'].includes(action.action)),
    );
    expect(lists.length).toBeGreaterThanOrEqual(6);
    for (const action of lists) {
      const parameters = shown(action.resource, action.action);
      expect(parameters.get('returnAll')?.default, `${action.id} Return All`).toBe(false);
      expect(parameters.get('limit')?.default, `${action.id} Limit`).toBe(50);
      const options = (parameters.get('options')?.options ?? []) as INodeProperties[];
      expect(
        options.map((option) => option.name),
        `${action.id} Options`,
      ).not.toContain('limit');
    }
  });
});
