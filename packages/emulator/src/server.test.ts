import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from './server.js';
import { call, emulator } from './test-support.js';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const WSOL = 'So11111111111111111111111111111111111111112';
/** A GET whose Host header names `host` (fetch always sends the URL's own). */
function getNaming(host: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
    httpGet(url, { headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    }).on('error', reject);
  });
}

const SEEDED_EVM_STREAM = '6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61';

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator({ apiKey: 'test-key-123' });
});
afterAll(() => emu.close());

describe('urls', () => {
  it('serves every interface on one port, the EVM base ending in /api/v2.2', () => {
    expect(emu.urls.evm).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/evm\/api\/v2\.2$/);
    const origins = new Set([...Object.values(emu.urls), emu.control].map((url) => new URL(url).origin));
    expect(origins.size).toBe(1);
  });
});

describe('authentication', () => {
  const cases = () => [
    { name: 'evm', url: `${emu.urls.evm}/erc20/${USDC}/price`, method: 'GET' },
    { name: 'entities', url: `${emu.urls.evm}/entities/binance`, method: 'GET' },
    {
      name: 'solana',
      url: `${emu.urls.solana}/token/mainnet/prices`,
      method: 'POST',
      body: { addresses: [WSOL] },
    },
    { name: 'streams', url: `${emu.urls.streams}/streams/bitcoin`, method: 'GET' },
  ];

  it('answers 401 with a JSON message when the key is missing, on every REST interface', async () => {
    for (const c of cases()) {
      const response = await call(c.url, { method: c.method, body: c.body });
      expect(response.status, c.name).toBe(401);
      expect(response.body.message, c.name).toMatch(/API key/);
    }
  });

  it('answers 401 to a wrong key without echoing it', async () => {
    for (const c of cases()) {
      const response = await call(c.url, { method: c.method, body: c.body, key: 'sk-wrong-secret' });
      expect(response.status, c.name).toBe(401);
      expect(JSON.stringify(response.body)).not.toContain('sk-wrong-secret');
    }
  });

  it('accepts the key header in any case', async () => {
    for (const header of ['X-API-Key', 'x-api-key', 'X-Api-Key', 'X-API-KEY']) {
      const response = await call(`${emu.urls.evm}/entities/binance`, {
        headers: { [header]: 'test-key-123' },
      });
      expect(response.status, header).toBe(200);
    }
  });

  it('checks the key in the last path segment of the node interface', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
    const wrong = await call(`${emu.urls.node}/eth/sk-wrong-secret`, { method: 'POST', body });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain('sk-wrong-secret');
    // Right key, but this emulator runs without anvil: a clear 503.
    const disabled = await call(`${emu.urls.node}/eth/test-key-123`, { method: 'POST', body });
    expect(disabled.status).toBe(503);
    expect(disabled.body.message).toMatch(/--no-anvil/);
  });
});

describe('routing', () => {
  it('answers 404 with a message for an unknown route and 405 for a wrong method', async () => {
    const unknown = await call(`${emu.urls.evm}/nft/${USDC}`, { key: 'test-key-123' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('/nft/');
    const outside = await call(`${new URL(emu.control).origin}/elsewhere`);
    expect(outside.status).toBe(404);
    const wrongMethod = await call(`${emu.urls.evm}/erc20/${USDC}/price`, {
      method: 'POST',
      key: 'test-key-123',
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.message).toContain('GET');
  });

  it('matches literal paths before placeholders (/entities/categories is not an entity id)', async () => {
    const categories = await call(`${emu.urls.evm}/entities/categories`, { key: 'test-key-123' });
    expect(categories.status).toBe(200);
    expect(categories.body.result.some((c: { id: string }) => c.id === 'exchanges')).toBe(true);
    const search = await call(`${emu.urls.evm}/entities/search?query=coinbase`, { key: 'test-key-123' });
    expect(search.status).toBe(200);
    expect(search.body.result.entities[0].id).toBe('coinbase');
  });

  it('answers 404 for unknown ids', async () => {
    const key = 'test-key-123';
    const entity = await call(`${emu.urls.evm}/entities/no-such-entity`, { key });
    expect(entity).toMatchObject({
      status: 404,
      body: { message: expect.stringContaining('no-such-entity') },
    });
    const category = await call(`${emu.urls.evm}/entities/categories/no-such-category`, { key });
    expect(category.status).toBe(404);
    const token = await call(`${emu.urls.evm}/erc20/0x000000000000000000000000000000000000dEaD/price`, {
      key,
    });
    expect(token.status).toBe(404);
    const stream = await call(`${emu.urls.streams}/streams/bitcoin/0b7e3b52-9c1e-4d8a-a0a3-2f6d1c9e8b7a`, {
      key,
    });
    expect(stream.status).toBe(404);
    const evmStream = await call(
      `${emu.urls.streams}/streams/evm/0b7e3b52-9c1e-4d8a-a0a3-2f6d1c9e8b7a/status`,
      {
        key,
        method: 'POST',
        body: { status: 'paused' },
      },
    );
    expect(evmStream.status).toBe(404);
  });
});

describe('bad input', () => {
  const key = 'test-key-123';

  it.each([
    ['chain not in the table', () => `${emu.urls.evm}/erc20/${USDC}/price?chain=solana`, 'chain'],
    ['to_block below 0', () => `${emu.urls.evm}/erc20/${USDC}/price?to_block=-1`, 'to_block'],
    ['a malformed address', () => `${emu.urls.evm}/erc20/0x1234/price`, 'address'],
    [
      'min_pair_side_liquidity_usd not a number',
      () => `${emu.urls.evm}/erc20/${USDC}/price?min_pair_side_liquidity_usd=lots`,
      'min_pair_side_liquidity_usd',
    ],
    ['a search without a query', () => `${emu.urls.evm}/entities/search`, 'query'],
    ['limit below 0 on search', () => `${emu.urls.evm}/entities/search?query=a&limit=-1`, 'limit'],
    ['limit below 0 on categories', () => `${emu.urls.evm}/entities/categories?limit=-5`, 'limit'],
    [
      'limit below 0 on a category listing',
      () => `${emu.urls.evm}/entities/categories/exchanges?limit=-1`,
      'limit',
    ],
  ])('GET with %s is a 400 naming the field', async (_name, url, field) => {
    const response = await call(url(), { key });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(field);
    expect(response.body.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  it('rejects more than 100 Solana addresses, an unknown network and a bad address', async () => {
    const many = await call(`${emu.urls.solana}/token/mainnet/prices`, {
      method: 'POST',
      key,
      body: { addresses: Array.from({ length: 101 }, () => WSOL) },
    });
    expect(many.status).toBe(400);
    expect(many.body.message).toContain('addresses');
    const network = await call(`${emu.urls.solana}/token/testnet/prices`, {
      method: 'POST',
      key,
      body: { addresses: [WSOL] },
    });
    expect(network.status).toBe(400);
    expect(network.body.message).toContain('network');
    const bad = await call(`${emu.urls.solana}/token/mainnet/prices`, {
      method: 'POST',
      key,
      body: { addresses: ['0OIl'] },
    });
    expect(bad.body.message).toContain('addresses.0');
    const notJson = await call(`${emu.urls.solana}/token/mainnet/prices`, {
      method: 'POST',
      key,
      body: '{"addresses":',
    });
    expect(notJson).toMatchObject({ status: 400, body: { message: expect.stringContaining('JSON') } });
  });

  it('rejects bad streams input and leaves the state unchanged', async () => {
    const before = await call(`${emu.urls.streams}/streams/bitcoin`, { key });
    const settingsBefore = await call(`${emu.urls.streams}/settings`, { method: 'POST', key, body: {} });
    const attempts: [string, string, string, unknown, string][] = [
      [
        'PUT',
        '/streams/bitcoin',
        'network',
        { webhookUrl: 'http://127.0.0.1:9/x', network: ['testnet'] },
        'network',
      ],
      ['PUT', '/streams/bitcoin', 'webhookUrl', { description: 'no url' }, 'webhookUrl'],
      ['GET', '/streams/bitcoin/not-a-uuid', 'id', undefined, 'id'],
      ['POST', `/streams/evm/${SEEDED_EVM_STREAM}/status`, 'status', { status: 'sleeping' }, 'status'],
      ['POST', '/settings', 'region', { region: 'mars-1' }, 'region'],
      ['GET', '/streams/bitcoin?limit=-1', 'limit', undefined, 'limit'],
    ];
    for (const [method, path, _what, body, field] of attempts) {
      const response = await call(`${emu.urls.streams}${path}`, { method, key, body });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.body.message, `${method} ${path}`).toContain(field);
    }
    expect((await call(`${emu.urls.streams}/streams/bitcoin`, { key })).body).toEqual(before.body);
    const settingsAfter = await call(`${emu.urls.streams}/settings`, { method: 'POST', key, body: {} });
    expect(settingsAfter.body).toEqual(settingsBefore.body);
  });

  it('rejects more than one address per add-address request', async () => {
    const receiverless = await call(`${emu.urls.streams}/streams/bitcoin`, {
      method: 'PUT',
      key,
      body: { webhookUrl: 'http://127.0.0.1:1/unreachable', description: 'one address at a time' },
    });
    const id = receiverless.body.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const two = await call(`${emu.urls.streams}/streams/bitcoin/${id}/address`, {
      method: 'POST',
      key,
      body: {
        address: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
      },
    });
    expect(two.status).toBe(400);
    expect(two.body.message).toContain('address');
    const listed = await call(`${emu.urls.streams}/streams/bitcoin/${id}/address`, { key });
    expect(listed.body.result).toEqual([]);
  });
});

describe('control API', () => {
  it('logs the requests served with the key masked on the node interface', async () => {
    await call(`${emu.control}/requests`, { method: 'DELETE' });
    await call(`${emu.urls.evm}/entities/uniswap`, { key: 'test-key-123' });
    await call(`${emu.urls.node}/eth/test-key-123`, { method: 'POST', body: {} });
    const { body } = await call(`${emu.control}/requests`);
    expect(body.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        interface: 'evm',
        path: '/evm/api/v2.2/entities/uniswap',
        status: 200,
      }),
      expect.objectContaining({ method: 'POST', interface: 'node', path: '/node/eth/***', status: 503 }),
    ]);
    expect(JSON.stringify(body)).not.toContain('test-key-123');
    const onlyNode = await call(`${emu.control}/requests?interface=node`);
    expect(onlyNode.body.requests).toHaveLength(1);
  });

  it('masks the key in the log even when the chain segment is missing or extra segments follow', async () => {
    await call(`${emu.control}/requests`, { method: 'DELETE' });
    await call(`${emu.urls.node}/test-key-123`, { method: 'POST', body: {} });
    await call(`${emu.urls.node}/eth/test-key-123/extra`, { method: 'POST', body: {} });
    const { body } = await call(`${emu.control}/requests`);
    expect(body.requests).toHaveLength(2);
    expect(JSON.stringify(body)).not.toContain('test-key-123');
  });

  it('sends no CORS headers and refuses requests from a web page of another origin', async () => {
    const plain = await call(`${emu.control}/faults`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    // A page anywhere on the web can send this "simple" request to loopback without a preflight.
    const before = (await call(`${emu.control}/faults`)).body;
    const fromPage = await call(`${emu.control}/faults`, {
      method: 'POST',
      body: JSON.stringify({ rate: 1 }),
      headers: { origin: 'https://attacker.example', 'content-type': 'text/plain' },
    });
    expect(fromPage).toMatchObject({ status: 403, body: { message: expect.stringContaining('origin') } });
    expect(fromPage.headers.get('access-control-allow-origin')).toBeNull();
    expect((await call(`${emu.control}/faults`)).body).toEqual(before);
    // DNS rebinding: the attacker's own name resolves to loopback, so Host and Origin agree.
    const port = new URL(emu.control).port;
    const rebound = await call(`${emu.control}/faults`, {
      headers: { origin: `http://rebind.example:${port}`, host: `rebind.example:${port}` },
    });
    expect(rebound.status).toBe(403);
    const sameOrigin = await call(`${emu.control}/faults`, {
      headers: { origin: new URL(emu.control).origin },
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('answers no other host name, on any interface: a DNS-rebound page cannot read the request log', async () => {
    const port = new URL(emu.control).port;
    const rebound = `rebind.example:${port}`;
    // A same-origin GET sends no Origin: only the Host names the attacker.
    const log = await getNaming(rebound, `${emu.control}/requests`);
    expect(log.status).toBe(403);
    expect(log.text).toContain('host');
    const service = await getNaming(rebound, `${emu.urls.evm}/entities/binance`, {
      'x-api-key': 'test-key-123',
    });
    expect(service.status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `10.1.2.3:${port}`]) {
      const named = await getNaming(host, `${emu.urls.evm}/entities/binance`, {
        'x-api-key': 'test-key-123',
      });
      expect(named.status, host).toBe(200);
    }
  });

  it('gives CORS to loopback pages only, never `*`: a website cannot use the public default key', async () => {
    const url = `${emu.urls.streams}/streams/bitcoin`;
    const attacker = await call(url, {
      key: 'test-key-123',
      headers: { origin: 'https://attacker.example' },
    });
    expect(attacker.status).toBe(403);
    expect(attacker.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call(url, { method: 'OPTIONS', headers: { origin: 'https://attacker.example' } });
    expect(preflight.status).toBe(403);
    const local = await call(url, { key: 'test-key-123', headers: { origin: 'http://localhost:5173' } });
    expect(local.status).toBe(200);
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await call(url, { key: 'test-key-123' })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers more hosts and origins only when told to', async () => {
    const open = await emulator({ allowedHosts: ['emu.internal'], allowedOrigins: ['https://app.example'] });
    try {
      const port = new URL(open.control).port;
      const response = await getNaming(`emu.internal:${port}`, `${open.urls.evm}/entities/binance`, {
        'x-api-key': open.apiKey,
        origin: 'https://app.example',
      });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('https://app.example');
    } finally {
      await open.close();
    }
  });

  it('validates fault settings and lists its routes on a 404', async () => {
    const bad = await call(`${emu.control}/faults`, { method: 'POST', body: { interface: 'evm', rate: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('rate');
    const unknown = await call(`${emu.control}/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('POST /bitcoin/mine');
  });

  it('drives the Bitcoin network', async () => {
    const tx = await call(`${emu.control}/bitcoin/transactions`, {
      method: 'POST',
      body: { to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: '0.015' },
    });
    expect(tx.status).toBe(200);
    expect(tx.body.txid).toMatch(/^[0-9a-f]{64}$/);
    const mined = await call(`${emu.control}/bitcoin/mine`, { method: 'POST', body: { blocks: 2 } });
    expect(mined.status).toBe(200);
    expect(mined.body.height).toBeGreaterThan(0);
    const evicted = await call(`${emu.control}/bitcoin/evict`, {
      method: 'POST',
      body: { txid: tx.body.txid },
    });
    expect(evicted).toMatchObject({ status: 200, body: { evicted: false } });
    const badTx = await call(`${emu.control}/bitcoin/transactions`, {
      method: 'POST',
      body: { to: 'not-an-address', amountBtc: 1 },
    });
    expect(badTx.status).toBe(400);
    const auto = await call(`${emu.control}/bitcoin/auto`, { method: 'POST', body: { intervalMs: 0 } });
    expect(auto).toMatchObject({ status: 200, body: { intervalMs: 0 } });
  });
});

describe('binding beyond loopback', () => {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

  it.skipIf(!external)(
    'serves the interfaces but refuses the control API to a non-loopback client',
    async () => {
      const open = await emulator({ host: '0.0.0.0' });
      try {
        expect(open.control).toMatch(/^http:\/\/127\.0\.0\.1:/);
        const port = new URL(open.control).port;
        const service = await call(`http://${external}:${port}/evm/api/v2.2/entities/binance`, {
          key: open.apiKey,
        });
        expect(service.status).toBe(200);
        const control = await call(`http://${external}:${port}/control/requests`);
        expect(control).toMatchObject({
          status: 403,
          body: { message: expect.stringContaining('loopback') },
        });
        expect((await call(`${open.control}/requests`)).status).toBe(200);
      } finally {
        await open.close();
      }
    },
  );
});
