/**
 * Bad input to every route is a 400 naming the field, an unknown id a 404, and neither changes
 * anything: the whole streams state is compared before and after.
 */

import type { FieldLocation, FieldMapping, Operation } from '@blockwire/core';
import { buildRequest, encodeQuery } from '@blockwire/core/internal';
import { operations as entityOperations } from '@blockwire/entities/operations';
import { operations as priceOperations } from '@blockwire/prices/operations';
import { operations as streamOperations } from '@blockwire/streams/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import type { Emulator } from './server.js';
import { call, emulator, type Receiver, startReceiver } from './test-support.js';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const UNKNOWN = '0b7e3b52-9c1e-4d8a-a0a3-2f6d1c9e8b7a';
const EVM_STREAM = '6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61';

let emu: Emulator;
let receiver: Receiver;
let stream: string;
let height: number;

beforeAll(async () => {
  [emu, receiver] = await Promise.all([emulator(), startReceiver()]);
  const key = emu.apiKey;
  stream = (
    await call(`${emu.urls.streams}/streams/bitcoin`, {
      method: 'PUT',
      key,
      body: { webhookUrl: receiver.url, description: 'fixture' },
    })
  ).body.id;
  await call(`${emu.urls.streams}/streams/bitcoin/${stream}/address`, {
    method: 'POST',
    key,
    body: { address: ADDRESS },
  });
  await call(`${emu.urls.streams}/streams/bitcoin/${stream}/xpub`, {
    method: 'POST',
    key,
    body: { xpub: ZPUB },
  });
  height = (await call(`${emu.control}/bitcoin/mine`, { method: 'POST', body: { blocks: 1 } })).body.height;
});
afterAll(async () => {
  await emu.close();
  await receiver.close();
});

/** Everything the streams interface shows, read through its own routes. */
async function streamsState() {
  const get = async (path: string) => (await call(`${emu.urls.streams}${path}`, { key: emu.apiKey })).body;
  return {
    list: await get('/streams/bitcoin?limit=100'),
    stream: await get(`/streams/bitcoin/${stream}`),
    addresses: await get(`/streams/bitcoin/${stream}/address`),
    xpubs: await get(`/streams/bitcoin/${stream}/xpub`),
    settings: (await call(`${emu.urls.streams}/settings`, { method: 'POST', key: emu.apiKey, body: {} }))
      .body,
    evm: (
      await call(`${emu.urls.streams}/streams/evm/${EVM_STREAM}/status`, {
        method: 'POST',
        key: emu.apiKey,
        body: { status: 'active' },
      })
    ).body.status,
  };
}

type Case = [operation: string, method: string, path: () => string, body: unknown, field: string];

// One rejected request per operation (the list among them).
const bad: Case[] = [
  [
    'getEvmTokenPrice',
    'GET',
    () => '/erc20/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/price?chain=0x7a69',
    undefined,
    'chain',
  ],
  ['getSolanaTokenPrices', 'POST', () => '/token/mainnet/prices', { addresses: [] }, 'addresses'],
  ['getEntitiesByCategory', 'GET', () => '/entities/categories/exchanges?page=-1', undefined, 'page'],
  ['searchEntities', 'GET', () => '/entities/search?query=%20', undefined, 'query'],
  ['getEntity', 'GET', () => '/entities/%20', undefined, 'entityId'],
  ['getEntityCategories', 'GET', () => '/entities/categories?limit=ten', undefined, 'limit'],
  ['updateEvmStreamStatus', 'POST', () => '/streams/evm/not-a-uuid/status', { status: 'paused' }, 'id'],
  ['updateSettings', 'POST', () => '/settings', { region: 'moon-1' }, 'region'],
  [
    'createBitcoinStream',
    'PUT',
    () => '/streams/bitcoin',
    { webhookUrl: 'ftp://x', network: ['mainnet'] },
    'webhookUrl',
  ],
  [
    'updateBitcoinStream',
    'POST',
    () => `/streams/bitcoin/${stream}`,
    { network: ['mainnet', 'testnet'] },
    'network',
  ],
  [
    'setBitcoinStreamStatus',
    'POST',
    () => `/streams/bitcoin/${stream}/status`,
    { status: 'error' },
    'status',
  ],
  ['listBitcoinStreams', 'GET', () => '/streams/bitcoin?limit=-1', undefined, 'limit'],
  ['getBitcoinStream', 'GET', () => '/streams/bitcoin/123', undefined, 'id'],
  ['deleteBitcoinStream', 'DELETE', () => '/streams/bitcoin/not-a-uuid', undefined, 'id'],
  ['getBitcoinBlockWebhookData', 'POST', () => '/streams/bitcoin/mainnet/block/-5', undefined, 'blockNumber'],
  [
    'replayBitcoinBlock',
    'POST',
    () => `/streams/bitcoin/mainnet/block-to-webhook/x/${stream}`,
    undefined,
    'blockNumber',
  ],
  [
    'listBitcoinStreamAddresses',
    'GET',
    () => `/streams/bitcoin/${stream}/address?limit=-1`,
    undefined,
    'limit',
  ],
  [
    'addBitcoinStreamAddress',
    'POST',
    () => `/streams/bitcoin/${stream}/address`,
    { address: [ADDRESS, ADDRESS] },
    'address',
  ],
  [
    'removeBitcoinStreamAddress',
    'DELETE',
    () => `/streams/bitcoin/${stream}/address`,
    { address: 'bc1-not-valid' },
    'address',
  ],
  ['listBitcoinStreamXpubs', 'GET', () => `/streams/bitcoin/not-a-uuid/xpub`, undefined, 'id'],
  [
    'addBitcoinStreamXpub',
    'POST',
    () => `/streams/bitcoin/${stream}/xpub`,
    { xpub: `${ZPUB.slice(0, -1)}t` },
    'xpub',
  ],
  ['removeBitcoinStreamXpub', 'DELETE', () => '/streams/bitcoin/not-a-uuid/xpub/abc', undefined, 'id'],
];

// One unknown id per operation that takes one.
const unknown: [operation: string, method: string, path: () => string, body: unknown][] = [
  ['getEntity', 'GET', () => '/entities/no-such-entity', undefined],
  ['getEntitiesByCategory', 'GET', () => '/entities/categories/no-such-category', undefined],
  [
    'getEvmTokenPrice',
    'GET',
    () => '/erc20/0x000000000000000000000000000000000000dEaD/price?chain=polygon',
    undefined,
  ],
  ['updateEvmStreamStatus', 'POST', () => `/streams/evm/${UNKNOWN}/status`, { status: 'paused' }],
  ['updateBitcoinStream', 'POST', () => `/streams/bitcoin/${UNKNOWN}`, { description: 'x' }],
  ['setBitcoinStreamStatus', 'POST', () => `/streams/bitcoin/${UNKNOWN}/status`, { status: 'paused' }],
  ['getBitcoinStream', 'GET', () => `/streams/bitcoin/${UNKNOWN}`, undefined],
  ['deleteBitcoinStream', 'DELETE', () => `/streams/bitcoin/${UNKNOWN}`, undefined],
  ['getBitcoinBlockWebhookData', 'POST', () => `/streams/bitcoin/mainnet/block/${height + 100}`, undefined],
  [
    'replayBitcoinBlock',
    'POST',
    () => `/streams/bitcoin/mainnet/block-to-webhook/${height}/${UNKNOWN}`,
    undefined,
  ],
  ['listBitcoinStreamAddresses', 'GET', () => `/streams/bitcoin/${UNKNOWN}/address`, undefined],
  ['addBitcoinStreamAddress', 'POST', () => `/streams/bitcoin/${UNKNOWN}/address`, { address: ADDRESS }],
  ['removeBitcoinStreamAddress', 'DELETE', () => `/streams/bitcoin/${UNKNOWN}/address`, { address: ADDRESS }],
  ['listBitcoinStreamXpubs', 'GET', () => `/streams/bitcoin/${UNKNOWN}/xpub`, undefined],
  ['addBitcoinStreamXpub', 'POST', () => `/streams/bitcoin/${UNKNOWN}/xpub`, { xpub: ZPUB }],
  ['removeBitcoinStreamXpub', 'DELETE', () => `/streams/bitcoin/${stream}/xpub/no-such-xpub`, undefined],
];

const byId = new Map<string, Operation>(
  [...priceOperations, ...entityOperations, ...streamOperations].map((op) => [op.id, op]),
);
const urlOf = (operation: string, path: string) => `${emu.urls[byId.get(operation)!.api]}${path}`;

/** Values no field of the contract takes, by where the field goes on the wire. */
const WRONG = {
  path: [' ', 'ten', '-1'],
  query: ['ten', ' ', '-1'],
  body: [{ wrong: true }, 'ten', -1],
} as const;

/**
 * A bad request for any operation, derived from it: its first example with one field's wire value
 * replaced by one its own input schema refuses. An endpoint added later gets one with no case here.
 */
function derivedBadRequest(operation: Operation): Case {
  const example = operation.examples[0]!.input as Record<string, unknown>;
  const built = buildRequest(operation, z.parse(operation.input, example) as Record<string, unknown>);
  const fields = operation.fields as Record<string, FieldLocation | FieldMapping>;
  for (const [field, mapping] of Object.entries(fields)) {
    const where = typeof mapping === 'string' ? mapping : mapping.in;
    const wire = typeof mapping === 'string' ? field : (mapping.as ?? field);
    for (const wrong of WRONG[where]) {
      if (z.safeParse(operation.input, { ...example, [field]: wrong }).success) continue;
      const path =
        where === 'path'
          ? operation.path.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
              name === wire
                ? encodeURIComponent(wrong as string)
                : encodeURIComponent(String(example[name] ?? placeholder)),
            )
          : built.path;
      const query = where === 'query' ? { ...built.query, [wire]: wrong as string } : built.query;
      const body = where === 'body' ? { ...built.body, [wire]: wrong } : built.body;
      return [operation.id, operation.method, () => `${path}${encodeQuery(query)}`, body, wire];
    }
  }
  throw new Error(`${operation.id}: no field refuses any of the wrong values; add one to WRONG`);
}

describe('bad input to every route', () => {
  it('names only operations that exist', () => {
    for (const [id] of bad) expect(byId.has(id), id).toBe(true);
  });

  it.each([...byId.values()].map((operation) => [operation.id, derivedBadRequest(operation)] as const))(
    '%s: a wrong value derived from the operation is a 400 naming the field, and nothing changes',
    async (_id, [operation, method, path, body, field]) => {
      const before = await streamsState();
      const response = await call(urlOf(operation, path()), { method, key: emu.apiKey, body });
      expect(
        response.status,
        `${method} ${path()} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`,
      ).toBe(400);
      expect(response.body.message).toContain(field);
      expect(await streamsState()).toEqual(before);
    },
  );

  it.each(bad)(
    '%s: bad input is a 400 naming the field, and nothing changes',
    async (operation, method, path, body, field) => {
      const before = await streamsState();
      const response = await call(urlOf(operation, path()), { method, key: emu.apiKey, body });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.message).toContain(field);
      expect(await streamsState()).toEqual(before);
    },
  );
});

describe('unknown ids', () => {
  it.each(unknown)(
    '%s: an unknown id is a 404 with a message, and nothing changes',
    async (operation, method, path, body) => {
      const before = await streamsState();
      const response = await call(urlOf(operation, path()), { method, key: emu.apiKey, body });
      expect(response.status, JSON.stringify(response.body)).toBe(404);
      expect(typeof response.body.message).toBe('string');
      expect(await streamsState()).toEqual(before);
    },
  );
});
