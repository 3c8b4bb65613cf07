import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { startServer } from '@blockwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';
import { ResponseTooLargeError } from './errors.js';
import type { Transport } from './transport.js';
import { createFetchTransport } from './transport-fetch.js';
import { createUndiciTransport } from './transport-undici.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const transports: [string, () => Transport][] = [
  ['undici', () => createUndiciTransport()],
  ['fetch', () => createFetchTransport()],
];

/** A server that answers every request with `body`, sent as `encoding`. */
async function serving(body: Buffer, encoding: string) {
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
    res.end(body);
  });
  return server.url;
}

function get(url: string, transport: Transport, maxResponseBytes?: number) {
  return createClient({
    apiKey: 'compressed-key',
    baseUrls: { evm: url },
    transport,
    retry: false,
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
  }).request({ api: 'evm', method: 'GET', path: '/answer', idempotent: true });
}

const answer = { usdPrice: 1.0002, tokenName: 'USD Coin', logs: Array.from({ length: 200 }, (_, i) => i) };
const text = Buffer.from(JSON.stringify(answer));
let bomb: Buffer | undefined;

describe.each(transports)('the %s transport and compressed answers', (_name, transport) => {
  it.each([
    ['gzip', gzipSync(text)],
    ['x-gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['deflate', deflateRawSync(text)],
    ['br', brotliCompressSync(text)],
  ])('decodes %s to the same data', async (encoding, body) => {
    const response = await get(await serving(body, encoding), transport());
    expect(response.data).toEqual(answer);
  });

  it('stops a 50 MB gzip bomb at the limit, counting decoded bytes', async () => {
    bomb ??= gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    const error = await get(await serving(bomb, 'gzip'), transport(), 1024 * 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).message).toContain('1048576');
  });

  it('fails clearly on a body that does not decode', async () => {
    const error = await get(await serving(Buffer.from('not gzip at all'), 'gzip'), transport()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toHaveProperty('data');
  });
});
