import { createClient } from '@blockwire/core';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { type IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearRequestLog, requestsSeen, type RunOptions, runNode } from './support/run-node';
import { solanaAddresses, USDC, WRAPPED_SOL } from './support/solana';

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 3 }); // with anvil, for the JSON-RPC actions
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

const run = (parameters: IDataObject | ((index: number) => IDataObject), options?: RunOptions) =>
  runNode(emulator, parameters, options);
const requests = (api: string) => requestsSeen(emulator, api);
const clearRequests = () => clearRequestLog(emulator);

describe('Blockwire node: batching across items', () => {
  it('1,000 items asking one Solana price each make 10 HTTP calls, and each item gets its own price back', async () => {
    const addresses = solanaAddresses(1_000);
    addresses[0] = USDC;
    addresses[500] = WRAPPED_SOL;
    await clearRequests();
    const output = await run(
      (index) => ({ resource: 'tokenPrice', operation: 'getSolana', addresses: addresses[index] }),
      {
        count: 1_000,
      },
    );
    expect((await requests('solana')).filter((r) => r.method === 'POST')).toHaveLength(10);
    // Each item comes back paired with the item that asked, in order.
    expect(output.map((item) => [item.pairedItem, item.json.tokenAddress])).toEqual(
      addresses.map((address, index) => [{ item: index }, address]),
    );
  });

  it('a token without a price still gives its item back, as { tokenAddress, found: false } (issue 21, point 8)', async () => {
    const unknown = solanaAddresses(250);
    unknown[3] = USDC;
    unknown[200] = WRAPPED_SOL;
    const output = await run(
      (index) => ({ resource: 'tokenPrice', operation: 'getSolana', addresses: unknown[index] }),
      { count: 250 },
    );
    expect(output).toHaveLength(250);
    expect(output.map((item) => item.pairedItem)).toEqual(unknown.map((_, index) => ({ item: index })));
    expect(output[0]?.json).toEqual({ tokenAddress: unknown[0], found: false });
    expect(output[3]?.json).toMatchObject({ tokenAddress: USDC, found: true, usdPrice: expect.any(Number) });
    expect(output[200]?.json).toMatchObject({ tokenAddress: WRAPPED_SOL, found: true });
  });

  it('items with their own lists and networks are pooled per network; each item gets the prices of its list, in its order', async () => {
    await clearRequests();
    const parameters = [
      { resource: 'tokenPrice', operation: 'getSolana', addresses: `${WRAPPED_SOL}\n${USDC}` },
      { resource: 'tokenPrice', operation: 'getSolana', addresses: [USDC] },
      {
        resource: 'tokenPrice',
        operation: 'getSolana',
        addresses: WRAPPED_SOL,
        options: { network: 'devnet' },
      },
    ];
    const output = await run((index) => parameters[index]!, { count: 3 });
    expect(output.map((item) => [item.pairedItem, item.json.tokenAddress])).toEqual([
      [{ item: 0 }, WRAPPED_SOL],
      [{ item: 0 }, USDC],
      [{ item: 1 }, USDC],
      [{ item: 2 }, WRAPPED_SOL],
    ]);
    expect((await requests('solana')).map((r) => r.path)).toEqual([
      '/solana/token/mainnet/prices',
      '/solana/token/devnet/prices',
    ]);
  });

  it('a pooled item with a bad address fails alone, naming the entry; the others are priced in one request', async () => {
    await clearRequests();
    const parameters = [
      { resource: 'tokenPrice', operation: 'getSolana', addresses: USDC },
      { resource: 'tokenPrice', operation: 'getSolana', addresses: `${WRAPPED_SOL}, not-base58-0OIl` },
      { resource: 'tokenPrice', operation: 'getSolana', addresses: WRAPPED_SOL },
    ];
    const output = await run((index) => parameters[index]!, { count: 3, continueOnFail: true });
    expect(output.map((item) => [item.pairedItem, item.json.tokenAddress ?? item.json.error])).toEqual([
      [{ item: 0 }, USDC],
      [{ item: 1 }, expect.stringMatching(/^Addresses \(entry 2\) in item 1: /)],
      [{ item: 2 }, WRAPPED_SOL],
    ]);
    expect(await requests('solana')).toHaveLength(1);
  });

  it('JSON-RPC calls of 45 items go out as 3 batches (20 + 20 + 5), identical ones merged, on the chain of the dropdown or an expression', async () => {
    await clearRequests();
    const output = await run(
      (index) => ({
        resource: 'rpc',
        operation: 'getBlockByNumber',
        chain: index % 2 === 0 ? 'eth' : '0x1',
        blockTag: index % 8,
      }),
      { count: 45 },
    );
    // Simplify (on by default) reads the block numbers as decimals.
    expect(output.map((item) => item.json.number)).toEqual(Array.from({ length: 45 }, (_, i) => i % 8));
    expect(output.map((item) => item.pairedItem)).toEqual(
      Array.from({ length: 45 }, (_, item) => ({ item })),
    );
    // 45 items asking 8 different blocks: identical calls share one, so one batch of 8 goes out.
    const calls = await requests('node');
    expect(calls.map((call) => call.path)).toEqual(['/node/eth/***']);

    await clearRequests();
    await run(
      (index) => ({
        resource: 'rpc',
        operation: 'getTransactionByHash',
        chain: index % 2 === 0 ? 'eth' : '0x1',
        hash: `0x${(index + 1).toString(16).padStart(64, '0')}`,
      }),
      { count: 45 },
    );
    const distinct = await requests('node');
    expect(distinct.map((call) => call.path)).toEqual(['/node/eth/***', '/node/eth/***', '/node/eth/***']);
  });
});

describe('Blockwire node: lists, outputs and errors', () => {
  it('pages a list: Limit stops early, Return All follows every page', async () => {
    const five = await run({
      resource: 'entity',
      operation: 'getByCategory',
      categoryId: 'exchanges',
      returnAll: false,
      limit: 5,
    });
    expect(five).toHaveLength(5);
    const all = await run({
      resource: 'entity',
      operation: 'getByCategory',
      categoryId: 'exchanges',
      returnAll: true,
    });
    expect(all.map((item) => item.json.id)).toHaveLength(12);
    expect(new Set(all.map((item) => item.json.id)).size).toBe(12);
  });

  it('follows cursors for Bitcoin streams and emits one item per stream', async () => {
    const client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
    const { createBitcoinStream } = await import('@blockwire/streams');
    for (let i = 0; i < 5; i++)
      await createBitcoinStream(client, { webhookUrl: 'http://127.0.0.1:9/hook', tag: `s${i}` });
    await client.close();
    const three = await run({ resource: 'bitcoinStream', operation: 'getMany', returnAll: false, limit: 3 });
    expect(three).toHaveLength(3);
    const all = await run({ resource: 'bitcoinStream', operation: 'getMany', returnAll: true });
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it('takes the EVM chain from the dropdown or as an expression giving a hex id', async () => {
    const weth = '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619';
    const [byName] = await run({
      resource: 'tokenPrice',
      operation: 'getEvm',
      address: weth,
      chain: 'polygon',
    });
    const [byId] = await run({
      resource: 'tokenPrice',
      operation: 'getEvm',
      address: weth,
      chain: '0x89',
    });
    expect(byName?.json.tokenSymbol ?? byName?.json.symbol).toBeDefined();
    expect(byId?.json).toEqual(byName?.json);
  });

  it('simplifies bulky answers unless turned off: lists of objects become counts, long texts go', async () => {
    const parameters = {
      resource: 'rpc',
      operation: 'getBlockByNumber',
      chain: 'eth',
      blockTag: 3,
      options: { fullTransactions: true },
    };
    const [raw] = await run({ ...parameters, simplify: false });
    const [simple] = await run(parameters); // Simplify is on unless turned off
    expect(Array.isArray(raw?.json.transactions)).toBe(true);
    expect(simple?.json.transactions).toBeUndefined();
    expect(simple?.json.transactionsCount).toBe((raw?.json.transactions as unknown[] | undefined)?.length);
    expect(simple?.json.logsBloom).toBeUndefined();
    expect(simple?.json.hash).toBe(raw?.json.hash);
  });

  it('names the parameter of a bad input, with the item, and sends nothing', async () => {
    await clearRequests();
    const error = await run({ resource: 'entity', operation: 'get', entityId: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toMatch(/^Entity ID: /);
    expect((error as NodeOperationError).context.itemIndex).toBe(0);
    expect(await requests('evm')).toEqual([]);
  });

  it('with Continue On Fail, a failed item gives its error and the others go on, every output paired', async () => {
    const addresses = [
      '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      'not-an-address',
      '0xdac17f958d2ee523a2206206994597c13d831ec7',
    ];
    const output = await run(
      (index) => ({ resource: 'tokenPrice', operation: 'getEvm', address: addresses[index] }),
      {
        count: 3,
        continueOnFail: true,
      },
    );
    expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
    expect(output[1]?.json.error).toMatch(/^Address in item 1: /);
    expect(output[0]?.json.usdPrice).toBeTypeOf('number');
    expect(output[2]?.json.usdPrice).toBeTypeOf('number');
  });

  it('a wrong key is a NodeApiError saying so, and the key appears nowhere — the JSON-RPC URL included', async () => {
    const key = ['wrong', 'key', 'in', 'the', 'url'].join('-');
    for (const parameters of [
      { resource: 'rpc', operation: 'getBlockByNumber', chain: 'eth', blockTag: 'latest' },
      { resource: 'entity', operation: 'get', entityId: 'binance' },
    ]) {
      const error = await run(parameters, { apiKey: key }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NodeApiError);
      expect((error as NodeApiError).httpCode).toBe('401');
      const everything = JSON.stringify(error, Object.getOwnPropertyNames(error));
      expect(everything).not.toContain(key);
      const output = await run(parameters, { apiKey: key, continueOnFail: true });
      expect(JSON.stringify(output)).not.toContain(key);
      expect(output[0]?.json.error).toMatch(/API key/);
    }
  });

  it('add-address reports each address, a refused one with its reason', async () => {
    const client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
    const { createBitcoinStream } = await import('@blockwire/streams');
    const stream = await createBitcoinStream(client, { webhookUrl: 'http://127.0.0.1:9/hook' });
    await client.close();
    const output = await run({
      resource: 'bitcoinStream',
      operation: 'addAddress',
      id: stream.id,
      addresses: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq, 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    });
    expect(output.map((item) => [item.json.address, item.json.ok])).toEqual([
      ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', true],
      ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', true],
    ]);
  });
});
