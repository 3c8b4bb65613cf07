import { json, startServer } from '@blockwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';
import { NetworkError, ResponseTooLargeError } from './errors.js';
import { createFetchTransport } from './transport-fetch.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientOn = (url: string, options: { maxResponseBytes?: number; timeoutMs?: number } = {}) =>
  createClient({
    apiKey: 'fetch-key',
    baseUrls: { evm: `${url}/api/v2.2`, node: url },
    transport: createFetchTransport(),
    retry: false,
    ...options,
  });

describe('createFetchTransport', () => {
  it('sends the request the undici transport sends, and reads the answer', async () => {
    server = await startServer(() => ({ body: { ok: true }, headers: { 'x-extra': 'yes' } }));
    const response = await clientOn(server.url).request({
      api: 'node',
      method: 'POST',
      path: '/eth',
      query: { a: 'b c' },
      body: { id: 1 },
      idempotent: true,
    });
    expect(response).toMatchObject({ status: 200, data: { ok: true }, attempts: 1 });
    expect(response.headers['x-extra']).toBe('yes');
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'POST', url: '/eth/fetch-key?a=b%20c', body: '{"id":1}' });
    expect(sent!.headers['content-type']).toBe('application/json');
  });

  it('stops a body past maxResponseBytes with a typed error', async () => {
    server = await startServer(() => ({ body: 'x'.repeat(5_000) }));
    await expect(
      clientOn(server.url, { maxResponseBytes: 1_000 }).request({
        api: 'evm',
        method: 'GET',
        path: '/big',
        idempotent: true,
      }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('does not follow a redirect, which would carry the key header elsewhere', async () => {
    const elsewhere = await startServer(() => ({ body: { stolen: true } }));
    try {
      server = await startServer((_req, res) => {
        res.writeHead(302, { location: `${elsewhere.url}/steal` });
        res.end();
      });
      const error = await clientOn(server.url)
        .request({ api: 'evm', method: 'GET', path: '/x', idempotent: true })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 302 });
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('maps a refused connection to a NetworkError with its code', async () => {
    const { refusedUrl } = await import('@blockwire/testing');
    const error = await clientOn(await refusedUrl())
      .request({ api: 'evm', method: 'GET', path: '/x', idempotent: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
  });

  it('is cut off by the timeout, and by the caller’s signal', async () => {
    server = await startServer(() => new Promise(() => {}));
    await expect(
      clientOn(server.url, { timeoutMs: 50 }).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(
      clientOn(server.url).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('works as a plain Transport too, honouring the request’s signal', async () => {
    server = await startServer((_req, res) => json(res, 200, [1, 2]));
    const transport = createFetchTransport();
    const response = await transport({
      method: 'GET',
      url: `${server.url}/list`,
      headers: {},
      signal: new AbortController().signal,
    });
    expect(response).toMatchObject({ status: 200, body: '[1,2]' });
    await expect(
      transport({
        method: 'GET',
        url: `${server.url}/list`,
        headers: {},
        signal: AbortSignal.abort(new Error('no')),
      }),
    ).rejects.toThrow('no');
  });
});
