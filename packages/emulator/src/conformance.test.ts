/**
 * Every route answers with a body that passes the SDK operation's own response schema, and every
 * JSON-RPC method's result passes the rpc package's result schema.
 */
import type { Operation } from '@blockwire/core';
import { buildRequest, encodeQuery } from '@blockwire/core/internal';
import { operations as entityOperations } from '@blockwire/entities/operations';
import { operations as priceOperations } from '@blockwire/prices/operations';
import { encodeParams, methods } from '@blockwire/rpc/operations';
import { operations as streamOperations } from '@blockwire/streams/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from './server.js';
import { call, emulator, type Receiver, startReceiver } from './test-support.js';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

let emu: Emulator;
let receiver: Receiver;
const ids: { stream?: string; xpub?: string; block?: number } = {};

beforeAll(async () => {
  [emu, receiver] = await Promise.all([emulator({ anvil: true }), startReceiver()]);
  await call(`${emu.control}/bitcoin/transactions`, {
    method: 'POST',
    body: { to: ADDRESS, amountBtc: 0.5 },
  });
  const mined = await call(`${emu.control}/bitcoin/mine`, { method: 'POST', body: { blocks: 3 } });
  ids.block = mined.body.height - 2;
});
afterAll(async () => {
  await emu?.close();
  await receiver?.close();
});

// A valid input for every operation, in an order where each can use what the earlier ones made.
const samples: [string, () => Record<string, unknown>][] = [
  ['getEvmTokenPrice', () => ({ address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', chain: 'eth' })],
  [
    'getSolanaTokenPrices',
    () => ({
      network: 'mainnet',
      addresses: [
        'So11111111111111111111111111111111111111112',
        'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      ],
    }),
  ],
  ['getEntitiesByCategory', () => ({ categoryId: 'exchanges', page: 0, limit: 5 })],
  ['searchEntities', () => ({ query: 'uni', limit: 5 })],
  ['getEntity', () => ({ entityId: 'binance' })],
  ['getEntityCategories', () => ({})],
  ['updateEvmStreamStatus', () => ({ id: '6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61', status: 'paused' })],
  ['updateSettings', () => ({ region: 'eu-central-1', secretKey: 'conformance-secret' })],
  [
    'createBitcoinStream',
    () => ({
      webhookUrl: receiver.url,
      description: 'conformance',
      tag: 'c',
      includeInputs: true,
      includeOutputs: true,
    }),
  ],
  ['updateBitcoinStream', () => ({ id: ids.stream, description: 'conformance, updated' })],
  ['listBitcoinStreams', () => ({ limit: 10 })],
  ['getBitcoinStream', () => ({ id: ids.stream })],
  ['getBitcoinBlockWebhookData', () => ({ chainId: 'mainnet', blockNumber: ids.block })],
  ['replayBitcoinBlock', () => ({ chainId: 'mainnet', blockNumber: ids.block, streamId: ids.stream })],
  ['setBitcoinStreamStatus', () => ({ id: ids.stream, status: 'paused' })],
  ['addBitcoinStreamAddress', () => ({ id: ids.stream, address: ADDRESS })],
  ['listBitcoinStreamAddresses', () => ({ id: ids.stream })],
  ['removeBitcoinStreamAddress', () => ({ id: ids.stream, address: ADDRESS })],
  ['addBitcoinStreamXpub', () => ({ id: ids.stream, xpub: ZPUB })],
  ['listBitcoinStreamXpubs', () => ({ id: ids.stream })],
  ['removeBitcoinStreamXpub', () => ({ id: ids.stream, xpubId: ids.xpub })],
  ['deleteBitcoinStream', () => ({ id: ids.stream })],
];

const allOperations: Operation[] = [...priceOperations, ...entityOperations, ...streamOperations];

describe('response schemas of every route', () => {
  it('has a sample input for every operation of every package', () => {
    expect(samples.map(([id]) => id).sort()).toEqual(allOperations.map((op) => op.id).sort());
  });

  it.each(samples)('%s answers 200 with a body its response schema accepts', async (id, sample) => {
    const operation = allOperations.find((op) => op.id === id)!;
    const values = operation.input.parse(sample()) as Record<string, unknown>;
    const { path, query, body } = buildRequest(operation, values);
    const response = await call(`${emu.urls[operation.api]}${path}${encodeQuery(query)}`, {
      method: operation.method,
      key: emu.apiKey,
      body,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const parsed = operation.response.safeParse(response.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    if (id === 'createBitcoinStream') ids.stream = response.body.id;
    if (id === 'addBitcoinStreamXpub') ids.xpub = response.body.id;
  });
});

describe('results of every JSON-RPC method', () => {
  const args = (): Record<string, Record<string, unknown>> => {
    const chain = emu.chain!;
    return {
      getBlockByHash: { hash: '' },
      getBlockByNumber: { blockTag: 2, fullTransactions: true },
      getUncleByBlockHashAndIndex: { hash: '', index: 0 },
      getUncleByBlockNumberAndIndex: { blockTag: 'latest', index: 0 },
      getBlockReceipts: { blockTag: 2 },
      getTransactionByHash: { hash: chain.transactionHashes[1] },
      getTransactionReceipt: { hash: chain.transactionHashes[0] },
      getProof: { address: chain.contract, storageKeys: [`0x${'0'.repeat(64)}`] },
    };
  };

  it.each(methods.map((method) => [method.id, method] as const))(
    '%s returns a result its schema accepts',
    async (id, method) => {
      const rpc = async (name: string, params: unknown[]) =>
        (
          await call(`${emu.urls.node}/eth/${emu.apiKey}`, {
            method: 'POST',
            body: { jsonrpc: '2.0', id: 1, method: name, params },
          })
        ).body;
      const input = args()[id]!;
      if ('hash' in input && input.hash === '') {
        input.hash = (await rpc('eth_getBlockByNumber', ['0x2', false])).result.hash;
      }
      const reply = await rpc(method.method, encodeParams(method, input as never));
      expect(reply.error).toBeUndefined();
      const parsed = method.result.safeParse(reply.result);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      // anvil has no uncles; every other method returns data from the seeded chain.
      if (!id.startsWith('getUncle')) expect(reply.result).not.toBeNull();
    },
  );
});
