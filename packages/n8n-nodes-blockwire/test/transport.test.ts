import {
  createClientWith,
  NetworkError,
  NotFoundError,
  RateLimitError,
  REDACTED,
  TimeoutError,
} from '@blockwire/core/operations';
import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { N8N_RUNTIME } from '../nodes/shared/runtime';
import { n8nTransport } from '../nodes/shared/transport';

const KEY = ['k3y', 'in', 'the', 'path', '0123456789'].join('-');

/** A context whose httpRequestWithAuthentication answers from a script, recording what it got. */
function contextAnswering(answer: (options: IHttpRequestOptions, index: number) => unknown) {
  const calls: { credentialType: string; options: IHttpRequestOptions }[] = [];
  const context = {
    helpers: {
      async httpRequestWithAuthentication(credentialType: string, options: IHttpRequestOptions) {
        calls.push({ credentialType, options });
        return answer(options, calls.length - 1);
      },
    },
  } as unknown as IAllExecuteFunctions;
  return { context, calls };
}

/** The client as the nodes make it: on n8n's runtime (no timer of its own, n8n's sleep). */
function clientOn(context: IAllExecuteFunctions, maxAttempts = 2) {
  return createClientWith(
    {
      apiKey: KEY,
      baseUrls: { evm: 'https://evm.test/api', node: 'https://node.test' },
      retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 1_000 },
      transport: n8nTransport(context, { apiKey: KEY, timeoutMs: 5_000 }),
    },
    N8N_RUNTIME,
  );
}

const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}) => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});

describe('n8nTransport', () => {
  it('sends through httpRequestWithAuthentication with the credential, leaving the key header to it', async () => {
    const { context, calls } = contextAnswering(() => json(200, { ok: true }));
    const response = await clientOn(context).request({
      api: 'evm',
      method: 'POST',
      path: '/things',
      body: { a: 1 },
      idempotent: true,
    });
    expect(response.data).toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    const [{ credentialType, options }] = calls as [(typeof calls)[0]];
    expect(credentialType).toBe('blockwireApi');
    expect(options).toMatchObject({
      url: 'https://evm.test/api/things',
      method: 'POST',
      body: '{"a":1}',
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      encoding: 'arraybuffer',
      json: false,
      timeout: 5_000,
    });
    expect(options.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' });
    expect(Object.keys(options.headers ?? {}).map((name) => name.toLowerCase())).not.toContain('x-api-key');
    expect(options.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('hands every status back to the SDK, which maps and retries it (Retry-After included)', async () => {
    const { context, calls } = contextAnswering((_, index) =>
      index === 0
        ? json(429, { message: 'slow down' }, { 'Retry-After': '0' })
        : json(404, { message: 'no such entity' }),
    );
    const error = await clientOn(context)
      .request({ api: 'evm', method: 'GET', path: '/entities/x', idempotent: true })
      .catch((e: unknown) => e);
    expect(calls).toHaveLength(2);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).serviceMessage).toBe('no such entity');
    const limited = contextAnswering(() => json(429, {}, { 'retry-after': '3600' }));
    await expect(
      clientOn(limited.context).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
    ).rejects.toBeInstanceOf(RateLimitError);
  });

  it('waits what Retry-After asks with n8n’s sleep, never less, before the next attempt', async () => {
    const sent: number[] = [];
    const { context } = contextAnswering((_, index) => {
      sent.push(performance.now());
      return index === 0 ? json(503, {}, { 'Retry-After': '1' }) : json(200, { ok: true });
    });
    const response = await clientOn(context).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
    });
    expect(response).toMatchObject({ status: 200, attempts: 2 });
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(1_000);
  });

  it('never sends a write again when its outcome is unknown (a 502 after it was sent)', async () => {
    const { context, calls } = contextAnswering(() => json(502, {}));
    await expect(
      clientOn(context, 3).request({ api: 'evm', method: 'POST', path: '/x', body: {}, idempotent: false }),
    ).rejects.toThrow(/502/);
    expect(calls).toHaveLength(1);
  });

  it('reports a request n8n ended at its timeout as a TimeoutError', async () => {
    const { context, calls } = contextAnswering(() => {
      throw Object.assign(new Error('timeout of 5000ms exceeded'), { code: 'ECONNABORTED' });
    });
    const error = await clientOn(context)
      .request({ api: 'evm', method: 'GET', path: '/x', idempotent: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(calls).toHaveLength(2);
  });

  it('reads text, Buffer and ArrayBuffer bodies, and lower-cases headers', async () => {
    for (const body of ['{"n":1}', Buffer.from('{"n":1}'), new TextEncoder().encode('{"n":1}').buffer]) {
      const { context } = contextAnswering(() => ({
        statusCode: 200,
        headers: { 'X-Thing': ['a', 'b'] },
        body,
      }));
      const response = await clientOn(context).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
      });
      expect(response.data).toEqual({ n: 1 });
      expect(response.headers['x-thing']).toBe('a, b');
    }
  });

  it("never passes n8n's error on: the JSON-RPC key in its URL, config and message stays out of what the SDK reports", async () => {
    const url = `https://node.test/eth/${KEY}`;
    const { context } = contextAnswering(() => {
      const cause = Object.assign(new Error(`connect ECONNREFUSED while calling ${url}`), {
        code: 'ECONNREFUSED',
      });
      throw Object.assign(new Error(`Request to ${url} failed`), {
        name: 'NodeApiError',
        config: { url, headers: { 'X-API-Key': KEY } },
        request: { path: `/eth/${KEY}` },
        cause,
      });
    });
    const error = await clientOn(context)
      .request({ api: 'node', method: 'POST', path: '/eth', body: [], idempotent: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
    const everything =
      JSON.stringify(error, Object.getOwnPropertyNames(error)) + String((error as Error).stack);
    const cause = (error as Error).cause as Error;
    const causeText = JSON.stringify(cause, Object.getOwnPropertyNames(cause)) + String(cause.stack);
    for (const text of [everything, causeText]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('config');
    }
    expect((error as Error).message).toContain(REDACTED);
  });
});
