import type { FieldInfo } from '@blockwire/core';
import { operations as entityOperations } from '@blockwire/entities/operations';
import { operations as priceOperations } from '@blockwire/prices/operations';
import { methods as rpcMethods, walletOperationId, walletReads } from '@blockwire/rpc/operations';
import { operations as streamOperations } from '@blockwire/streams/operations';
import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS, RPC_CHAIN_OPTIONS } from '../nodes/Blockwire/actions';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import {
  buildProperties,
  collectionOf,
  type DescribedAction,
  NODE_PARAMETERS,
  pagingFields,
} from '../nodes/Blockwire/description';
import { withoutFinalPeriod } from '../nodes/shared/wording';

/** Resource and operation values are fixed: saved workflows rely on them (issue #9). */
const FIXED = {
  tokenPrice: ['getEvm', 'getSolana'],
  entity: ['get', 'search', 'getCategories', 'getByCategory'],
  evmStream: ['updateStatus'],
  settings: ['update'],
  bitcoinStream: [
    'create',
    'get',
    'getMany',
    'update',
    'delete',
    'setStatus',
    'getBlockData',
    'replayBlock',
    'addAddress',
    'removeAddress',
    'getAddresses',
    'addXpub',
    'removeXpub',
    'getXpubs',
  ],
  rpc: [
    'getBlockByHash',
    'getBlockByNumber',
    'getUncleByBlockHashAndIndex',
    'getUncleByBlockNumberAndIndex',
    'getBlockReceipts',
    'getTransactionByHash',
    'getTransactionReceipt',
    'getProof',
  ],
};

const field = (overrides: Partial<FieldInfo> & Pick<FieldInfo, 'name' | 'type'>): FieldInfo => ({
  displayName: `Label of ${overrides.name}`,
  description: `What ${overrides.name} means.`,
  required: false,
  advanced: false,
  schema: {},
  ...overrides,
});

/** A small table with every kind of field and placement the builder handles. */
const FIXTURE: DescribedAction[] = [
  {
    resource: 'widget',
    action: 'create',
    displayName: 'Create Widget',
    summary: 'Creates a widget',
    client: 'rest',
    bulky: false,
    fields: [
      field({ name: 'title', type: 'string', required: true, placeholder: 'My widget' }),
      field({ name: 'size', type: 'number' }),
      field({
        name: 'color',
        type: 'options',
        options: [
          { name: 'Red', value: 'red' },
          { name: 'Blue', value: 'blue' },
        ],
      }),
      field({ name: 'tags', type: 'stringList' }),
      field({ name: 'meta', type: 'json', schema: { type: 'object' } }),
      field({ name: 'public', type: 'boolean', default: true }),
    ],
  },
  {
    resource: 'widget',
    action: 'getMany',
    displayName: 'Get Many Widgets',
    summary: 'Lists widgets',
    client: 'rest',
    bulky: true,
    paging: {
      style: 'cursor',
      cursorField: 'cursor',
      nextCursor: 'cursor',
      items: 'result',
      limitField: 'limit',
    },
    fields: [
      field({ name: 'owner', type: 'string', required: true }),
      field({ name: 'limit', type: 'number' }),
      field({ name: 'cursor', type: 'string' }),
      field({ name: 'sort', type: 'options', options: [{ name: 'newest', value: 'newest' }] }),
    ],
  },
  {
    resource: 'rpc',
    action: 'getThing',
    displayName: 'Get Thing',
    summary: 'Calls eth_getThing',
    client: 'rpc',
    bulky: false,
    fields: [field({ name: 'hash', type: 'string', required: true })],
  },
];

function shown(properties: INodeProperties[], resource: string, operation: string) {
  return properties.filter((property) => {
    const show = property.displayOptions?.show;
    return show?.resource?.includes(resource) && show.operation?.includes(operation);
  });
}

describe('the description builder, on a fixture table', () => {
  const properties = buildProperties(FIXTURE);

  it('makes a Resource dropdown and an Operation dropdown per resource from the actions', () => {
    expect(properties[0]).toMatchObject({
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      // Sorted by name, as n8n's rules ask; the default stays the table's first.
      options: [
        { name: 'JSON-RPC', value: 'rpc' },
        { name: 'Widget', value: 'widget' },
      ],
      default: 'widget',
    });
    const operations = properties.filter((property) => property.name === 'operation');
    expect(operations.map((property) => property.options)).toEqual([
      [
        {
          name: 'Create Widget',
          value: 'create',
          description: 'Creates a widget',
          action: 'Create a widget',
        },
        {
          name: 'Get Many Widgets',
          value: 'getMany',
          description: 'Lists widgets',
          action: 'Get many widgets',
        },
      ],
      [{ name: 'Get Thing', value: 'getThing', description: 'Calls eth_getThing', action: 'Get a thing' }],
    ]);
  });

  it('puts required fields top-level and optional ones in Additional Fields (writes) keyed by SDK name, typed from the field', () => {
    const create = shown(properties, 'widget', 'create');
    expect(create.find((p) => p.name === 'title')).toMatchObject({
      displayName: 'Label of title',
      description: 'What title means',
      type: 'string',
      required: true,
      default: '',
      placeholder: 'My widget',
    });
    const collection = create.find((p) => p.name === 'additionalFields');
    expect(collection).toMatchObject({ type: 'collection', displayName: 'Additional Fields', default: {} });
    // Sorted by label, as n8n's rules ask.
    const byLabel = (a: { displayName: string }, b: { displayName: string }) =>
      a.displayName.localeCompare(b.displayName);
    expect(collection?.options).toEqual(
      [
        {
          displayName: 'Label of size',
          name: 'size',
          description: 'What size means',
          type: 'number',
          default: '',
        },
        {
          displayName: 'Label of color',
          name: 'color',
          description: 'What color means',
          type: 'options',
          options: [
            { name: 'Blue', value: 'blue' },
            { name: 'Red', value: 'red' },
          ],
          default: 'red',
        },
        {
          displayName: 'Label of tags',
          name: 'tags',
          description:
            'What tags means. One per line or separated by commas, or an array from an expression.',
          type: 'string',
          typeOptions: { rows: 2 },
          default: '',
        },
        {
          displayName: 'Label of meta',
          name: 'meta',
          description: 'What meta means',
          type: 'json',
          default: '{}',
        },
        {
          displayName: 'Label of public',
          name: 'public',
          description: 'Whether to what public means',
          type: 'boolean',
          default: true,
        },
      ].sort(byLabel),
    );
    expect(create.find((p) => p.name === 'returnAll')).toBeUndefined();
  });

  it('gives lists Return All and Limit instead of their cursor and page size, other options in Options, and Simplify to bulky answers', () => {
    const list = shown(properties, 'widget', 'getMany');
    // toolDescription: shown only on the tool node (`@tool`), which this helper does not tell apart.
    expect(list.map((p) => p.name)).toEqual([
      'owner',
      'returnAll',
      'limit',
      'options',
      'simplify',
      'toolDescription',
    ]);
    expect(list.find((p) => p.name === 'limit')).toMatchObject({
      default: 50,
      displayOptions: { show: { resource: ['widget'], operation: ['getMany'], returnAll: [false] } },
    });
    expect(list.find((p) => p.name === 'options')?.options?.map((o) => (o as INodeProperties).name)).toEqual([
      'sort',
    ]);
    expect(pagingFields(FIXTURE[1]!)).toEqual(['cursor', 'limit']);
    expect(collectionOf({ action: 'updateStatus' })).toBe('additionalFields');
    expect(collectionOf({ action: 'getMany' })).toBe('options');
  });

  it('gives JSON-RPC resources a Chain dropdown of the registry, which also takes expressions', () => {
    const chain = properties.find((p) => p.name === 'chain');
    expect(chain).toMatchObject({
      type: 'options',
      required: true,
      default: 'eth',
      displayOptions: { show: { resource: ['rpc'] } },
    });
    expect(chain?.options).toEqual([...RPC_CHAIN_OPTIONS].sort((a, b) => a.name.localeCompare(b.name)));
    expect(RPC_CHAIN_OPTIONS).toContainEqual({
      name: 'BNB Smart Chain Testnet (0x61)',
      value: 'bsc-testnet',
    });
    expect(chain?.noDataExpression).toBeUndefined();
  });
});

describe('the Blockwire node, built from the SDK’s metadata', () => {
  const description = new Blockwire().description;

  it('keeps every resource and operation saved workflows name (an endpoint added later adds its own)', () => {
    const table: Record<string, string[]> = {};
    for (const action of NODE_ACTIONS)
      table[action.resource] = [...(table[action.resource] ?? []), action.action];
    expect(Object.keys(table)).toEqual(expect.arrayContaining(Object.keys(FIXED)));
    for (const [resource, actions] of Object.entries(FIXED)) {
      expect(table[resource], resource).toEqual(expect.arrayContaining([...actions]));
    }
    expect(description).toMatchObject({
      name: 'blockwire',
      usableAsTool: true,
      credentials: [{ name: 'blockwireApi', required: true }],
    });
  });

  it('has an action for every operation the SDK exports, and no action without one', () => {
    const operationIds: string[] = [
      ...[...priceOperations, ...entityOperations, ...streamOperations, ...rpcMethods].map((o) => o.id),
      ...walletReads.map(walletOperationId),
    ];
    expect(NODE_ACTIONS.map((action) => action.id).sort()).toEqual([...operationIds].sort());
  });

  it('takes every parameter of every action from its field description, and no field shadows a node parameter', () => {
    const properties = description.properties;
    for (const action of NODE_ACTIONS) {
      const own = shown(properties, action.resource, action.action);
      const collection = own.find((p) => p.name === collectionOf(action))?.options ?? [];
      for (const info of action.fields) {
        if (pagingFields(action).includes(info.name)) continue;
        const where = info.required ? own : (collection as INodeProperties[]);
        const property = where.find((p) => p.name === info.name);
        expect(property, `${action.id}.${info.name}`).toBeDefined();
        expect(property?.displayName).toBe(info.displayName);
        // n8n's wording: no final period on one sentence, booleans "Whether to …".
        expect(property?.description).toContain(withoutFinalPeriod(info.description).slice(1));
        if (info.required) expect(NODE_PARAMETERS, `${action.id}.${info.name}`).not.toContain(info.name);
      }
    }
  });

  it('lets Get Proof run without Storage Keys: an empty list proves the account only (issue #21, point 4)', () => {
    const own = shown(description.properties, 'rpc', 'getProof');
    expect(own.find((p) => p.name === 'storageKeys')).toBeUndefined();
    const collection = own.find((p) => p.type === 'collection')?.options as INodeProperties[] | undefined;
    expect(collection?.find((p) => p.name === 'storageKeys')).toBeDefined();
  });

  it('offers the chains by name for EVM prices, Solana networks, stream statuses and regions as dropdowns', () => {
    const options = (resource: string, operation: string, name: string) => {
      const own = shown(description.properties, resource, operation);
      const direct = own.find((p) => p.name === name);
      if (direct) return direct;
      return own.flatMap((p) => (p.options ?? []) as INodeProperties[]).find((p) => p.name === name);
    };
    expect(options('tokenPrice', 'getEvm', 'chain')?.options).toHaveLength(32);
    expect(options('tokenPrice', 'getSolana', 'network')).toMatchObject({
      type: 'options',
      default: 'mainnet',
    });
    expect(options('evmStream', 'updateStatus', 'status')?.options).toHaveLength(4);
    expect(options('settings', 'update', 'region')?.options).toHaveLength(4);
    expect(options('tokenPrice', 'getSolana', 'addresses')).toMatchObject({ type: 'string', required: true });
  });
});
