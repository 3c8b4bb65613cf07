/**
 * The demo server's routes over real HTTP, against the emulator: what the page may send, the
 * sentences it gets back, and that no secret ever reaches it.
 */
import { request } from 'node:http';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { base58 } from '@scure/base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, createServiceClient } from './backend.js';
import { devWalletOf } from './dev-wallet.js';
import { FIELD_NAMES } from './problems.js';
import { bitcoinRoutes } from './routes/bitcoin.js';
import { blockRoutes } from './routes/blocks.js';
import { entityRoutes } from './routes/entities.js';
import { EMULATOR_NODE_CHAINS_NOTE, infoRoutes } from './routes/info.js';
import { priceRoutes } from './routes/prices.js';
import type { RouteContext } from './routes/route.js';
import { createDemoServer, type DemoServer } from './server.js';

const API_KEY = 'demo-test-key-5f7c0a19e2';

/** 32 bytes that differ by `i`: a well-formed Solana address no fixture has. */
function solanaKey(i: number): Uint8Array {
  const key = new Uint8Array(32).fill(7);
  new DataView(key.buffer).setUint32(28, i);
  return key;
}
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

let emulator: Emulator;
let server: DemoServer;
let base: string;
const logged: string[] = [];
/** Every body the server sent, to check at the end that none holds the key. */
const bodies: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY, seed: 1 });
  const client = createServiceClient({
    apiKey: API_KEY,
    baseUrls: emulator.urls,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
  const backend: Backend = {
    mode: 'emulator',
    client,
    secrets: [API_KEY],
    webhook: undefined,
    webhookUnavailable: 'The board is off in this test.',
    bitcoin: undefined,
    devWallet: devWalletOf(emulator.chain?.accounts),
    close: () => client.close(),
  };
  const context: RouteContext = { backend, board: undefined };
  server = createDemoServer({
    routes: [
      ...infoRoutes(context, () => ({ label: 'Local emulator', detail: 'test' })),
      ...priceRoutes(context),
      ...entityRoutes(context),
      ...blockRoutes(context),
      ...bitcoinRoutes(context),
    ],
    receiver: () => undefined,
    feed: { snapshot: () => ({ rows: [], status: bitcoinStatusOff, size: 200 }), subscribe: () => () => {} },
    secrets: [API_KEY],
    log: (line) => logged.push(line),
  });
  base = (await server.listen(0)).slice(0, -1);
  afterAll(() => client.close());
});

const bitcoinStatusOff = { enabled: false, simulator: false, allAddresses: false, watched: [] };

afterAll(async () => {
  await server?.close();
  await emulator?.close();
});

afterEach(async () => {
  await fetch(`${emulator.control}/faults`, { method: 'DELETE' });
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, headers: response.headers, text, json: safeJson(text) };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, text, json: safeJson(text) };
}

function safeJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

describe('token prices', () => {
  it('answers a price view and how many service requests it took', async () => {
    const { status, json, headers } = await get(`/api/prices/evm?chain=eth&address=${USDC}`);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      chain: { name: 'eth', hexId: '0x1' },
      symbol: 'USDC',
      exchangeName: 'Uniswap v3',
      verifiedContract: true,
      possibleSpam: false,
    });
    expect(json.usdPrice).toBeCloseTo(1, 1);
    expect(typeof json.change24hPercent).toBe('number');
    expect(typeof json.pairLiquidityUsd).toBe('number');
    expect(headers.get('x-service-requests')).toBe('1');
  });

  it('passes the block number on: a historical price', async () => {
    const { json } = await get(`/api/prices/evm?chain=eth&address=${USDC}&toBlock=21000000`);
    expect(json.block).toBe('21000000');
  });

  it.each([
    [
      'a short address',
      `chain=eth&address=0x1234`,
      'The address must be a 0x-prefixed address of 40 hex digits.',
      'address',
    ],
    ['no address', `chain=eth`, 'The address is required.', 'address'],
    ['an empty address', `chain=eth&address=`, 'The address is required.', 'address'],
    [
      'a 4 000-character address',
      `chain=eth&address=${'a'.repeat(4_000)}`,
      'The address must be at most 100 characters.',
      'address',
    ],
    [
      'a block that is not a number',
      `chain=eth&address=${USDC}&toBlock=12abc`,
      'The block number must be a whole number (digits only).',
      'toBlock',
    ],
    [
      'an unknown field',
      `chain=eth&address=${USDC}&include=percent_change`,
      'The input has unknown field(s) include.',
      undefined,
    ],
  ])('refuses %s with a sentence naming the field', async (_case, query, message, field) => {
    const { status, json } = await get(`/api/prices/evm?${query}`);
    expect(status).toBe(400);
    expect(json.message).toBe(message);
    expect(json.field).toBe(field);
  });

  it('says an unknown chain in a sentence that lists the valid ones', async () => {
    const { status, json } = await get(`/api/prices/evm?chain=mars&address=${USDC}`);
    expect(status).toBe(400);
    expect(json.message).toMatch(
      /^The chain is not valid: unknown chain "mars"; use one of: eth \(0x1\), sepolia/,
    );
    expect(json.field).toBe('chain');
  });

  it('says when a token has no price, with what the service said', async () => {
    const { status, json } = await get(`/api/prices/evm?chain=sepolia&address=${USDC}`);
    expect(status).toBe(404);
    expect(json.message).toMatch(
      /^Nothing found for this token on sepolia\. The service said: No pools found/,
    );
  });

  it('says when the service rate limits, after the client retried', async () => {
    await fetch(`${emulator.control}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0 }),
    });
    const { status, json, headers } = await get(`/api/prices/evm?chain=eth&address=${USDC}`);
    expect(status).toBe(429);
    expect(json.message).toMatch(
      /^The service is rate limiting requests and still refused after the client’s retries\./,
    );
    expect(headers.get('x-service-requests')).toBeNull();
  });

  it('says when the service fails', async () => {
    await fetch(`${emulator.control}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ interface: 'evm', rate: 1, statuses: [502] }),
    });
    const { status, json } = await get(`/api/prices/evm?chain=eth&address=${USDC}`);
    expect(status).toBe(502);
    expect(json.message).toBe('The service failed (HTTP 502) even after retries. Try again.');
  });

  it('prices many Solana tokens pasted as text, each once, and says which had no price', async () => {
    const sol = 'So11111111111111111111111111111111111111112';
    const unknown = '11111111111111111111111111111111';
    const { status, json } = await post('/api/prices/solana', {
      addresses: `${sol}\n${sol}, EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v ${unknown}`,
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ network: 'mainnet', asked: 3, missing: [unknown], calls: 1 });
    expect((json.prices as { symbol: string }[]).map((price) => price.symbol)).toEqual(['SOL', 'USDC']);
  });

  it('splits more than 100 Solana addresses into calls of 100 (counted, not assumed)', async () => {
    // 250 distinct Solana addresses (base58 of 32 bytes) the emulator has no price for.
    const addresses = Array.from({ length: 250 }, (_, i) => base58.encode(solanaKey(i)));
    const { status, json } = await post('/api/prices/solana', { addresses });
    expect(status).toBe(200);
    expect(json.asked).toBe(250);
    expect(json.calls).toBe(3);
  });

  it('says which address does not decode to the 32 bytes of a Solana address', async () => {
    const short = base58.encode(solanaKey(1).subarray(1));
    const { status, json } = await post('/api/prices/solana', {
      addresses: `${base58.encode(solanaKey(0))} ${short}`,
    });
    expect(status).toBe(400);
    expect(json.message).toBe(
      'Address 2 of the list must be a Solana address: base58 of 32 bytes (this one decodes to 31).',
    );
    expect(json.field).toBe('addresses');
  });

  it('names the bad Solana address by its place in the list', async () => {
    const { status, json } = await post('/api/prices/solana', {
      addresses: 'So11111111111111111111111111111111111111112 not-an-address',
    });
    expect(status).toBe(400);
    expect(json.message).toBe('Address 2 of the list must be a base58 address of 32 to 44 characters.');
    expect(json.field).toBe('addresses');
  });

  it('refuses an empty list and more than the demo takes at once', async () => {
    expect((await post('/api/prices/solana', { addresses: ' \n, ' })).json.message).toBe(
      'Paste at least one Solana token address.',
    );
    const many = Array.from({ length: 1001 }, (_, i) => `addr${i}`).join(' ');
    expect((await post('/api/prices/solana', { addresses: many })).json.message).toMatch(
      /^That is 1,001 addresses; the demo looks up at most 1,000 at once\.$/,
    );
  });
});

describe('entities', () => {
  it('groups a search into entities, addresses and categories', async () => {
    const { status, json } = await get('/api/entities/search?query=binance');
    expect(status).toBe(200);
    expect((json.entities as { id: string }[])[0]).toMatchObject({ id: 'binance', name: 'Binance' });
    expect(json.addresses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          address: '0x28c6c06298d514db089934071355e5743bf21d60',
          label: 'Binance 14',
        }),
      ]),
    );
    expect(Array.isArray(json.categories)).toBe(true);
  });

  it('opens an entity with its labelled addresses', async () => {
    const { json } = await get('/api/entities/entity?id=binance');
    expect(json).toMatchObject({ id: 'binance', name: 'Binance', type: 'exchange' });
    expect(json.addresses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'Binance 14', chain: 'eth', labels: ['exchanges', 'exchange'] }),
      ]),
    );
  });

  it('refuses an entity id that would lead to another path, naming the field', async () => {
    const { status, json } = await get('/api/entities/entity?id=binance%2F..%2Fcoinbase');
    expect(status).toBe(400);
    expect(json).toEqual({
      message: 'The entity id must not contain /, \\, ? or # (it fills one path segment).',
      field: 'entityId',
    });
  });

  it.each(['..', '%2e%2e', 'binance/../coinbase'])(
    'refuses or does not find the entity id %s',
    async (id) => {
      const { status, json } = await get(`/api/entities/entity?id=${id}`);
      expect([400, 404]).toContain(status);
      expect(json.message).toMatch(/\.$/);
    },
  );

  it('says an unknown entity plainly', async () => {
    const { status, json } = await get('/api/entities/entity?id=no-such-entity');
    expect(status).toBe(404);
    expect(json.message).toMatch(/^Nothing found for the entity “no-such-entity”\./);
  });

  it('lists categories and pages through one', async () => {
    const categories = (await get('/api/entities/categories')).json as unknown as { id: string }[];
    expect(categories.map((category) => category.id)).toContain('exchanges');
    const first = (await get('/api/entities/category?id=exchanges')).json;
    const second = (await get('/api/entities/category?id=exchanges&page=1')).json;
    // 12 exchanges fill the first page exactly: the demo looks at the next one and offers none.
    expect(first).toMatchObject({ categoryId: 'exchanges', page: 0, more: false });
    expect(second).toMatchObject({ page: 1, more: false });
    expect((first.entities as unknown[]).length + (second.entities as unknown[]).length).toBe(12);
  });
});

describe('blocks', () => {
  it('answers the latest block with its transactions and receipts in one JSON-RPC batch', async () => {
    const { status, json, headers } = await get('/api/blocks/block?chain=eth&number=5');
    expect(status).toBe(200);
    expect(json).toMatchObject({ chain: 'eth', number: 5 });
    const transactions = json.transactions as { status: string; gasUsed: number }[];
    expect(transactions.length).toBeGreaterThan(0);
    for (const tx of transactions)
      expect(tx).toMatchObject({ status: 'success', gasUsed: expect.any(Number) });
    expect(headers.get('x-service-requests')).toBe('1');
  });

  it('says a block number too long to be one as such, not as "not digits"', async () => {
    const { status, json } = await get('/api/blocks/block?chain=eth&number=12345678901234567890123');
    expect(status).toBe(400);
    expect(json).toMatchObject({
      field: 'number',
      message: 'The block number must be at most 18 digits long.',
    });
    expect((await get('/api/blocks/block?number=12a')).json.message).toBe(
      'The block number must be a whole number (digits only).',
    );
  });

  it('says, on the emulator, that every chain of the node interface is the same anvil chain', async () => {
    const info = (await get('/api/info')).json;
    expect(info.nodeChainsNote).toBe(EMULATOR_NODE_CHAINS_NOTE);
    const eth = (await get('/api/blocks/block?chain=eth&number=1')).json;
    const sepolia = (await get('/api/blocks/block?chain=sepolia&number=1')).json;
    expect(sepolia.hash).toBe(eth.hash);
  });

  it('says a block that does not exist yet, and refuses an unknown chain', async () => {
    const missing = await get('/api/blocks/block?chain=eth&number=999999');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toMatch(/^Block 999999 does not exist yet: the latest on eth is \d+\.$/);
    const chain = await get('/api/blocks/block?chain=mars');
    expect(chain.status).toBe(400);
    expect(chain.json.message).toBe('The chain is not a chain of the node interface.');
  });

  it('sends a test transaction from a dev account, mined into a new latest block', async () => {
    const before = (await get('/api/blocks/block')).json.number as number;
    const { status, json } = await post('/api/blocks/send-test-transaction', {});
    expect(status).toBe(200);
    expect(json).toEqual({ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), blockNumber: before + 1 });
    const after = (await get('/api/blocks/block')).json;
    expect(after.number).toBe(before + 1);
    expect(after.transactions).toEqual([
      expect.objectContaining({
        hash: json.hash,
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        valueEth: '0.01',
        status: 'success',
      }),
    ]);
  });

  it('sends test transactions asked for at once one after the other, each with its own nonce', async () => {
    const before = (await get('/api/blocks/block')).json.number as number;
    const answers = await Promise.all([1, 2, 3].map(() => post('/api/blocks/send-test-transaction', {})));
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200]);
    expect(answers.map(({ json }) => json.blockNumber as number).sort((a, b) => a - b)).toEqual([
      before + 1,
      before + 2,
      before + 3,
    ]);
    expect(new Set(answers.map(({ json }) => json.hash)).size).toBe(3);
  });
});

describe('the Bitcoin routes without a board or a simulator', () => {
  it('say why in a sentence', async () => {
    expect((await get('/api/bitcoin/board')).json).toMatchObject({
      rows: [],
      status: { enabled: false, reason: 'The board is off in this test.' },
    });
    const send = await post('/api/bitcoin/send', {
      to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      amountBtc: '0.1',
    });
    expect(send.status).toBe(409);
    expect(send.json.message).toBe(
      'Sending and mining are simulator buttons: they work on the local emulator only.',
    );
    expect((await post('/api/bitcoin/watch', { address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' })).status).toBe(
      409,
    );
  });

  it.each([
    [
      { to: 'tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', amountBtc: '0.1' },
      /^The address is a testnet address/,
    ],
    [
      { to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: '0.123456789' },
      /^The amount must be an amount of BTC such as 0\.125, with at most 8 decimals\.$/,
    ],
    [{ to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: '0' }, /^The amount must be more than 0/],
    [
      { to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: '21000001' },
      /at most 21 000 000 BTC\.$/,
    ],
  ])('check what is sent before anything else: %j', async (body, message) => {
    const { status, json } = await post('/api/bitcoin/send', body);
    expect(status).toBe(400);
    expect(json.message).toMatch(message);
  });

  it.each(['1e3', '-1', 'abc', '1.', '.5', '0x10', '1,5', ' 1 2', 'Infinity'])(
    'take an amount as decimal text only: %j',
    async (amountBtc) => {
      const { status, json } = await post('/api/bitcoin/send', {
        to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
        amountBtc,
      });
      expect(status).toBe(400);
      expect(json.message).toBe(
        'The amount must be an amount of BTC such as 0.125, with at most 8 decimals.',
      );
    },
  );

  it('refuse 40 000 characters where an address goes, at once', async () => {
    const { status, json } = await post('/api/bitcoin/watch', { address: 'bc1q'.repeat(10_000) });
    expect(status).toBe(400);
    expect(json.message).toBe('The address must be at most 100 characters.');
    const solana = await post('/api/prices/solana', { addresses: '1'.repeat(40_000) });
    expect(solana.json.message).toBe(
      'Address 1 of the list must be a base58 address of 32 to 44 characters.',
    );
  });

  it('refuse a lone surrogate as input', async () => {
    const { status, json } = await post('/api/bitcoin/watch', '{"address":"bc1q\\ud800"}');
    expect(status).toBe(400);
    expect(json.message).toBe('The address contains a broken character.');
  });

  it('check the number of blocks to mine', async () => {
    const { status, json } = await post('/api/bitcoin/mine', { blocks: 1000 });
    expect(status).toBe(400);
    expect(json.message).toBe('The number of blocks must be at most 10.');
  });
});

describe('every refusal of what the page sent', () => {
  const NAMES = [...new Set(Object.values(FIELD_NAMES))].join('|');
  /** A field's name, then words that read on from it ("The address must …", "The chain is not valid: …"). */
  const SENTENCE = new RegExp(
    `^(${NAMES}|Address \\d+ of the list|The input) (must|is|has|contains)\\b[^]*[.!?]$`,
  );
  const long = 'x'.repeat(201);
  it.each([
    ['GET', `/api/prices/evm?chain=ethereum&address=${USDC}`],
    ['GET', `/api/prices/evm?chain=eth&address=0x12`],
    ['GET', `/api/prices/evm?chain=eth&address=${USDC}&toBlock=abc`],
    ['GET', `/api/prices/evm?chain=eth&address=${USDC}&toBlock=12345678901234567890123`],
    ['GET', `/api/prices/evm?chain=eth&address=${USDC}&limit=3`],
    ['GET', '/api/prices/evm?chain=eth'],
    ['POST', '/api/prices/solana', { addresses: 'x'.repeat(100_001) }],
    ['POST', '/api/prices/solana', { addresses: Array(1001).fill('x') }],
    ['POST', '/api/prices/solana', { addresses: 5 }],
    [
      'POST',
      '/api/prices/solana',
      { addresses: 'So11111111111111111111111111111111111111112', network: 'x' },
    ],
    ['POST', '/api/prices/solana', { addresses: 'So1 So11111111111111111111111111111111111111112' }],
    ['GET', '/api/entities/search'],
    ['GET', `/api/entities/search?query=${long}`],
    ['GET', '/api/entities/entity?id=..%2Fx'],
    ['GET', '/api/entities/category?id=exchanges&page=x'],
    ['GET', '/api/blocks/block?chain=mars'],
    ['GET', '/api/blocks/block?number=1e3'],
    ['POST', '/api/bitcoin/send', { to: 'nope', amountBtc: '1e3' }],
    ['POST', '/api/bitcoin/send', { to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: 5 }],
    ['POST', '/api/bitcoin/mine', { blocks: 'a' }],
    ['POST', '/api/bitcoin/watch', {}],
    ['POST', '/api/bitcoin/all-addresses', { enabled: 'yes' }],
  ] as const)('reads as sentences about the field: %s %s', async (method, path, body?: unknown) => {
    const { status, json } = method === 'GET' ? await get(path) : await post(path, body);
    expect(status).toBe(400);
    for (const sentence of String(json.message).split(/(?<=[.!?]) (?=[A-Z])/)) {
      expect(sentence).toMatch(SENTENCE);
    }
  });
});

describe('what the server accepts', () => {
  it('refuses bodies that are not JSON, not valid JSON, or too large', async () => {
    const plain = await fetch(`${base}/api/bitcoin/mine`, { method: 'POST', body: '{}' });
    expect(plain.status).toBe(415);
    for (const body of ['[]', 'null', '"blocks"', '42']) {
      const notAnObject = await post('/api/bitcoin/mine', body);
      expect(notAnObject.status, body).toBe(400);
      expect(notAnObject.json.message).toBe('The request body must be a JSON object.');
    }
    const broken = await post('/api/bitcoin/mine', '{"blocks":');
    expect(broken.status).toBe(400);
    expect(broken.json.message).toBe('The request body is not valid JSON.');
    const large = await post('/api/prices/solana', { addresses: 'x'.repeat(300 * 1024) });
    expect(large.status).toBe(413);
  });

  it('answers unknown routes and wrong methods with sentences', async () => {
    expect((await get('/api/nothing')).json.message).toBe('There is no API route /api/nothing.');
    const wrong = await post('/api/prices/evm', {});
    expect(wrong.status).toBe(405);
    expect(wrong.json.message).toBe('POST is not allowed here.');
  });

  it('answers only under its own loopback names, and only to its own page', async () => {
    const rebound = await rawGet('/api/info', { host: 'attacker.example' });
    expect(rebound.status).toBe(403);
    const foreign = await post('/api/bitcoin/mine', { blocks: 1 }, { origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json.message).toBe('Requests from other web pages are refused.');
    const own = await get('/api/info', { origin: base });
    expect(own.status).toBe(200);
  });

  it('spends no service request for a cross-site <img> or <script> GET (no Origin, Sec-Fetch-Site)', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const embedded = await get(
        '/api/prices/evm?address=0xdac17f958d2ee523a2206206994597c13d831ec7&chain=eth',
        {
          'sec-fetch-site': site,
          'sec-fetch-mode': 'no-cors',
          'sec-fetch-dest': 'image',
        },
      );
      expect(embedded.status, site).toBe(403);
      expect(embedded.headers.get('x-service-requests'), site).toBeNull();
      expect(embedded.json.message).toBe('Requests from other web pages are refused.');
    }
    for (const site of ['same-origin', 'none']) {
      expect((await get('/api/info', { 'sec-fetch-site': site })).status, site).toBe(200);
    }
    // A link from another site still opens the page itself.
    expect((await get('/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status).toBe(
      200,
    );
  });

  it('serves the page with a strict content security policy, and nothing outside it', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await get('/lib/api.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/lib/%2e%2e/%2e%2e/server.ts',
      '/%2e%2e%2fserver.ts',
      '/.hidden',
      '/%00',
      '/%E0%A4%A',
    ]) {
      expect((await rawGet(path)).status, path).toBe(404);
    }
  });
});

describe('the API key', () => {
  it('is never sent to the page, even when a service echoes it', async () => {
    const echoed = await get(`/api/entities/search?query=${API_KEY}`);
    expect(echoed.json.query).toBe('***');
    const missing = await get(`/api/entities/entity?id=${API_KEY}`);
    expect(missing.json.message).toContain('***');
    await get('/api/info');
    await get('/api/blocks/block?chain=polygon');
    for (const body of bodies) {
      expect(body).not.toContain(API_KEY);
      expect(body).not.toContain(encodeURIComponent(API_KEY));
    }
    for (const line of logged) expect(line).not.toContain(API_KEY);
  });
});

/** A GET with headers fetch will not let us set (Host), and a path it would normalize. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}
