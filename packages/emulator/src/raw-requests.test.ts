/**
 * Requests no well-behaved client sends, byte for byte over a socket: paths a URL parser would
 * rewrite (dot segments, backslashes, fragments), bad percent-encoding, malformed request lines,
 * bodies that are not UTF-8 or carry fields no operation has. Each is refused with a JSON 4xx and
 * changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from './server.js';
import { call, emulator, type Receiver, rawHttp, startReceiver } from './test-support.js';

const KEY = 'raw-requests-key';
const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const WSOL = 'So11111111111111111111111111111111111111112';

let emu: Emulator;
let receiver: Receiver;
let origin: string;
let stream: string;
let xpub: string;

beforeAll(async () => {
  [emu, receiver] = await Promise.all([emulator({ apiKey: KEY }), startReceiver()]);
  origin = new URL(emu.control).origin;
  stream = (
    await call(`${emu.urls.streams}/streams/bitcoin`, {
      method: 'PUT',
      key: KEY,
      body: { webhookUrl: receiver.url, description: 'keep me' },
    })
  ).body.id;
  xpub = (
    await call(`${emu.urls.streams}/streams/bitcoin/${stream}/xpub`, {
      method: 'POST',
      key: KEY,
      body: { xpub: ZPUB },
    })
  ).body.id;
});
afterAll(async () => {
  await emu.close();
  await receiver.close();
});

/** Everything a refused request could have changed. */
async function everything() {
  const streams = (path: string) => call(`${emu.urls.streams}${path}`, { key: KEY });
  return {
    streams: (await streams('/streams/bitcoin?limit=100')).body,
    xpubs: (await streams(`/streams/bitcoin/${stream}/xpub`)).body,
    settings: (await call(`${emu.urls.streams}/settings`, { method: 'POST', key: KEY, body: {} })).body,
    faults: (await call(`${emu.control}/faults`)).body,
  };
}

const send = (method: string, path: string, body: Buffer | string = '', headers: string[] = []) =>
  rawHttp(origin, [`${method} ${path} HTTP/1.1`, `x-api-key: ${KEY}`, ...headers].join('\r\n'), body);

describe('paths a URL parser would rewrite', () => {
  const DOTS = ['..', '.', '%2e%2e', '%2E%2e', '.%2E', '%2e.', '%2e', '%2E'];
  const cases = (): [string, string, string][] => [
    // The issue's case: removeBitcoinStreamXpub with xpubId '..' is the delete-stream route once normalised.
    ...DOTS.map((dots): [string, string, string] => [
      'DELETE',
      `/streams/streams/bitcoin/${stream}/xpub/${dots}`,
      '',
    ]),
    ['DELETE', `/streams/streams/bitcoin/${stream}/xpub/%2e%2e?force=1`, ''],
    ['DELETE', `/streams/streams/bitcoin/${stream}/xpub/${xpub}/%2e%2e`, ''],
    ['POST', '/streams/streams/bitcoin/%2e%2e/block/5', ''],
    ['GET', '/evm/api/v2.2/entities/%2e%2e', ''],
    ['GET', '/evm/api/v2.2/entities/./binance', ''],
    ['POST', '/solana/token/%2e%2e/prices', JSON.stringify({ addresses: [WSOL] })],
    ['POST', `/node/eth/%2e%2e/${KEY}`, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}'],
    ['POST', `/node/%2e/eth/${KEY}`, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}'],
    // One interface's prefix, another's route.
    ['POST', '/streams/%2e%2e/control/faults', JSON.stringify({ rate: 1 })],
    ['POST', '/control/bitcoin/%2e%2e/faults', JSON.stringify({ rate: 1 })],
    ['POST', '/control/bitcoin/../faults', JSON.stringify({ rate: 1 })],
    // A backslash is a slash to a WHATWG URL parser; encoded slashes are to some proxies.
    ['DELETE', `/streams/streams/bitcoin/${stream}/xpub/x\\..\\..`, ''],
    ['DELETE', `/streams/streams/bitcoin/${stream}\\xpub`, ''],
    ['DELETE', `/streams/streams/bitcoin/${stream}/xpub/a%2F..`, ''],
    ['DELETE', `/streams/streams/bitcoin/${stream}/xpub/a%5c..`, ''],
    // A fragment is dropped by a parser: everything after # would vanish.
    ['DELETE', `/streams/streams/bitcoin/${stream}#/xpub/${xpub}`, ''],
    // The same in absolute form, as a proxy sends it.
    ['DELETE', `http://127.0.0.1/streams/streams/bitcoin/${stream}/xpub/%2e%2e`, ''],
    // Bad percent-encoding, encoded control characters, an overlong UTF-8 dot.
    ['GET', '/%zz', ''],
    ['GET', '/evm/api/v2.2/entities/%E0%A4%A', ''],
    ['GET', '/evm/api/v2.2/entities/bin%00ance', ''],
    ['GET', '/evm/api/v2.2/entities/%C0%AE%C0%AE', ''],
  ];

  it('refuses each with a JSON 400 before routing, on every interface, and changes nothing', async () => {
    const before = await everything();
    for (const [method, path, body] of cases()) {
      const response = await send(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.headers['content-type'], path).toMatch(/^application\/json/);
      expect(response.body.message, path).toMatch(/^Invalid request path: /);
    }
    expect(await everything()).toEqual(before);
    // The stream and its xpub are still there.
    expect((await call(`${emu.urls.streams}/streams/bitcoin/${stream}`, { key: KEY })).status).toBe(200);
  });

  it('never echoes the node key in the message', async () => {
    const response = await send('POST', `/node/eth/%2e%2e/${KEY}%zz`, '{}');
    expect(response.status).toBe(400);
    expect(response.text).not.toContain(KEY);
  });

  it('still serves ordinary paths: dots inside a segment, encoded characters, a trailing slash', async () => {
    expect((await send('GET', '/evm/api/v2.2/entities/binance/')).status).toBe(200);
    expect((await send('GET', '/evm/api/v2.2/entities/%62inance')).status).toBe(200);
    expect((await send('GET', '/evm/api/v2.2/entities/...')).body.message).not.toMatch(/path/);
    expect((await send('GET', '/evm/api/v2.2/entities/search?query=a..b%2e%2e')).status).toBe(200);
  });
});

describe('malformed request lines', () => {
  it.each([
    ['a space in the path', 'GET /evm/api/v2.2/entities/a b HTTP/1.1', 400],
    ['a control character', 'GET /evm/api/v2.2/\x01 HTTP/1.1', 400],
    ['an unknown HTTP version', 'GET /evm/api/v2.2/entities/binance HTTP/9.9', 400],
    ['an invalid method', 'G@T /evm/api/v2.2/entities/binance HTTP/1.1', 400],
    ['an absurdly long path', `GET /evm/api/v2.2/entities/${'a'.repeat(40_000)} HTTP/1.1`, 431],
  ])('answers %s with a JSON error like every other 4xx', async (_name, line, status) => {
    const response = await rawHttp(origin, line);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body.message).toMatch(/^Malformed HTTP request: /);
  });
});

describe('bodies', () => {
  const notUtf8 = (json: string) =>
    Buffer.concat([Buffer.from(json.slice(0, 16)), Buffer.from([0xff, 0xfe]), Buffer.from(json.slice(16))]);

  it.each([
    ['a settings secretKey', 'POST', '/streams/settings', '{"secretKey":"new-secret-key-1"}'],
    [
      'a stream description',
      'PUT',
      '/streams/streams/bitcoin',
      '{"description":"bad","webhookUrl":"http://127.0.0.1:1/x"}',
    ],
    ['a control route', 'POST', '/control/faults', '{"interface":"evm","rate":1}'],
    ['a Solana price request', 'POST', '/solana/token/mainnet/prices', `{"addresses":["${WSOL}"]}`],
  ])('refuses invalid UTF-8 in %s with 400 instead of storing U+FFFD', async (_name, method, path, json) => {
    const before = await everything();
    const response = await send(method, path, notUtf8(json), ['content-type: application/json']);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/UTF-8/);
    expect(await everything()).toEqual(before);
  });

  it('refuses a lone surrogate escaped in JSON (it has no UTF-8 form)', async () => {
    const before = await everything();
    const response = await send('POST', '/streams/settings', '{"secretKey":"abc\\ud800def-secret"}');
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/lone surrogate/);
    expect(await everything()).toEqual(before);
  });

  it.each([
    [
      'createBitcoinStream',
      'PUT',
      '/streams/streams/bitcoin',
      { webhookUrl: 'x', colour: 'red' },
      ['colour'],
    ],
    [
      'updateSettings',
      'POST',
      '/streams/settings',
      { secretKey: 'new-secret-key-2', secretkey: 'y' },
      ['secretkey'],
    ],
    [
      'getSolanaTokenPrices',
      'POST',
      '/solana/token/mainnet/prices',
      { addresses: [WSOL], network: 'devnet' },
      ['network'],
    ],
    ['deleteBitcoinStream', 'DELETE', () => `/streams/streams/bitcoin/${stream}`, { force: true }, ['force']],
    [
      'updateBitcoinStream',
      'POST',
      () => `/streams/streams/bitcoin/${stream}`,
      { description: 'x', tags: ['a'], Tag: 'b' },
      ['tags', 'Tag'],
    ],
  ])(
    '%s: unknown body fields are a 400 naming them, and nothing changes',
    async (_id, method, path, body, fields) => {
      const before = await everything();
      const url = typeof path === 'function' ? path() : path;
      const response = await send(method, url, JSON.stringify(body), ['content-type: application/json']);
      expect(response.status, response.text).toBe(400);
      expect(response.body.message).toContain(`unknown field(s) ${fields.join(', ')}`);
      expect(response.body.issues).toEqual(fields.map((field) => ({ field, message: 'unknown field' })));
      expect(await everything()).toEqual(before);
    },
  );

  it('refuses a body that is not a JSON object where an operation takes fields', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const response = await send('POST', '/streams/settings', body);
      expect(response.status, body).toBe(400);
      expect(response.body.message, body).toMatch(/body must be a JSON object/);
    }
  });
});
