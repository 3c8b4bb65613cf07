import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { json, refusedUrl, startServer } from '@blockwire/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Api } from './client-types.js';
import { createClient } from './create-client.js';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  BlockwireError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors.js';
import { type ClientOptions, DEFAULT_BASE_URLS } from './options.js';
import { encodeQuery } from './query.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
const clients: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

const fast = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2_000 };

function clientFor(url: string, options: Partial<ClientOptions> = {}) {
  const client = createClient({
    apiKey: 'test-key',
    baseUrls: { evm: `${url}/api/v2.2`, solana: url, streams: url, node: url },
    retry: fast,
    ...options,
  });
  clients.push(client);
  return client;
}

async function caught(promise: Promise<unknown>): Promise<BlockwireError> {
  try {
    await promise;
  } catch (error) {
    return error as BlockwireError;
  }
  throw new Error('expected a rejection');
}

describe('createClient options', () => {
  it('requires a non-empty apiKey', () => {
    for (const apiKey of [undefined, '', '   ', 42]) {
      expect(() => createClient({ apiKey } as unknown as ClientOptions)).toThrow(ValidationError);
    }
    expect(() => createClient({ apiKey: '' })).toThrow(/apiKey/);
  });

  it('uses the documented default base URLs', () => {
    const client = createClient({ apiKey: 'k' });
    expect(client.baseUrls).toEqual(DEFAULT_BASE_URLS);
    expect(client.baseUrls.evm).toBe('https://deep-index.moralis.io/api/v2.2');
  });

  it('rejects a base URL that is not a URL, naming it', () => {
    expect(() => createClient({ apiKey: 'k', baseUrls: { evm: 'not a url' } })).toThrow(/baseUrls\.evm/);
  });

  it('rejects a base URL that is not http(s), such as host:port without a scheme', () => {
    for (const evm of ['localhost:3000/api/v2.2', 'ftp://example.com/x']) {
      expect(() => createClient({ apiKey: 'k', baseUrls: { evm } })).toThrow(
        /baseUrls\.evm: must be an http/,
      );
    }
    expect(() => createClient({ apiKey: 'k', baseUrls: { evm: 'HTTP://127.0.0.1:1/api' } })).not.toThrow();
  });

  it('keeps the key out of a bad base URL error (a node URL pasted with the key in it)', () => {
    for (const node of [
      'site1.moralis-nodes.com/eth/CANARY-KEY',
      'wss://site1.moralis-nodes.com/eth/CANARY-KEY',
    ]) {
      expect(() => createClient({ apiKey: 'CANARY-KEY', baseUrls: { node } })).toThrow(ValidationError);
      try {
        createClient({ apiKey: 'CANARY-KEY', baseUrls: { node } });
      } catch (error) {
        expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
          'CANARY',
        );
      }
    }
  });

  it('rejects a key with surrounding whitespace or control characters, without showing it', () => {
    for (const apiKey of ['CANARY-KEY\n', ' CANARY-KEY', 'CANARY\u0000KEY', 'CANARY-KEY\r\n']) {
      const error = (() => {
        try {
          createClient({ apiKey });
        } catch (thrown) {
          return thrown as ValidationError;
        }
        throw new Error('expected a ValidationError');
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues[0]?.path).toBe('apiKey');
      expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
        'CANARY',
      );
    }
  });

  it('rejects a timeout no Node timer can hold (it would time out every attempt at once)', () => {
    for (const timeoutMs of [2 ** 31, Number.POSITIVE_INFINITY, 0, -1, Number.NaN]) {
      expect(() => createClient({ apiKey: 'k', timeoutMs })).toThrow(/timeoutMs/);
    }
    expect(createClient({ apiKey: 'k', timeoutMs: 2 ** 31 - 1 }).timeoutMs).toBe(2 ** 31 - 1);
  });

  function optionIssues(options: unknown) {
    try {
      createClient(options as ClientOptions);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).issues;
    }
    throw new Error('expected a ValidationError');
  }

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    [
      'baseUrl',
      { baseUrl: 'http://127.0.0.1:3000' },
      'baseUrl',
      /is not an option \(did you mean "baseUrls"\?\)/,
    ],
    ['apikey', { apikey: 'x' }, 'apikey', /did you mean "apiKey"/],
    ['timeout', { timeout: 5_000 }, 'timeout', /did you mean "timeoutMs"/],
    [
      'baseUrls.eth',
      { baseUrls: { eth: 'http://x' } },
      'baseUrls.eth',
      /is not an interface.*evm, solana, streams, node/,
    ],
    ['baseUrls.streem', { baseUrls: { streem: 'http://x' } }, 'baseUrls.streem', /did you mean "streams"/],
    ['retry.attempts', { retry: { attempts: 5 } }, 'retry.attempts', /is not a retry setting/],
    [
      'hooks.onError',
      { hooks: { onError: () => {} } },
      'hooks.onError',
      /is not a hook.*onRequest, onResponse, onRetry/,
    ],
  ])('names the unknown option %s and the valid one meant', (_, extra, path, message) => {
    const issues = optionIssues({ apiKey: 'k', ...extra });
    expect(issues).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a number as a base URL', { baseUrls: { evm: 42 } }, 'baseUrls.evm'],
    ['a URL object as a base URL', { baseUrls: { evm: new URL('http://127.0.0.1') } }, 'baseUrls.evm'],
    ['a string as baseUrls', { baseUrls: 'http://127.0.0.1' }, 'baseUrls'],
    ['null as baseUrls', { baseUrls: null }, 'baseUrls'],
    ['a string timeout', { timeoutMs: '1000' }, 'timeoutMs'],
    [
      'retry maxAttempts undefined is fine, NaN is not',
      { retry: { maxAttempts: Number.NaN } },
      'retry.maxAttempts',
    ],
    ['a hook that is not a function', { hooks: { onRequest: 'log' } }, 'hooks.onRequest'],
    ['a transport that is not a function', { transport: 'undici' }, 'transport'],
    ['a user agent with a header break', { userAgent: 'app\r\nX-Evil: 1' }, 'userAgent'],
    ['a user agent that is not text', { userAgent: 7 }, 'userAgent'],
    ['a lone surrogate in the key', { apiKey: 'CANARY\uD800KEY' }, 'apiKey'],
    ['a non-ASCII key', { apiKey: 'CANARY\u2013KEY' }, 'apiKey'],
  ])('refuses %s with a ValidationError naming it', (_, options, path) => {
    const issues = optionIssues({ apiKey: 'k', ...options });
    expect(issues.map((issue) => issue.path)).toEqual([path]);
    expect(JSON.stringify(issues)).not.toContain('CANARY');
  });

  it('takes retry settings left undefined as their defaults', () => {
    expect(createClient({ apiKey: 'k', retry: { maxAttempts: undefined } }).retry.maxAttempts).toBe(3);
  });

  it('says what createClient needs when it gets no options object', () => {
    for (const options of [undefined, null, 'my-key', 42, []]) {
      expect(optionIssues(options)[0]?.message).toMatch(
        /needs an options object such as \{ apiKey \}|apiKey/,
      );
    }
  });

  it('lists every bad option at once', () => {
    const issues = optionIssues({ apiKey: '', baseUrl: 'x', timeoutMs: -1, retry: { maxAttempts: 0 } });
    expect(issues.map((issue) => issue.path)).toEqual([
      'baseUrl',
      'apiKey',
      'timeoutMs',
      'retry.maxAttempts',
    ]);
  });

  it('strips trailing slashes in linear time, whatever the base URL', () => {
    const started = performance.now();
    const slashes = `http://h/${'/'.repeat(40_000)}x`;
    expect(createClient({ apiKey: 'k', baseUrls: { evm: slashes } }).baseUrls.evm).toBe(slashes);
    const client = createClient({ apiKey: 'k', baseUrls: { evm: `http://h/x${'/'.repeat(40_000)}` } });
    expect(client.baseUrls.evm).toBe('http://h/x');
    // Room for a busy machine; a quadratic scan of 40,000 slashes takes seconds.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives a client or a ValidationError for any options whatsoever (fuzzed)', () => {
    const anyOption = fc.oneof(fc.anything(), fc.string(), fc.double(), fc.constant(undefined));
    const options = fc.oneof(
      fc.anything(),
      fc.record(
        {
          apiKey: fc.oneof(fc.string(), anyOption),
          baseUrls: fc.oneof(
            fc.dictionary(fc.constantFrom('evm', 'node', 'eth', '__proto__'), anyOption),
            anyOption,
          ),
          timeoutMs: anyOption,
          retry: fc.oneof(
            fc.dictionary(fc.constantFrom('maxAttempts', 'baseDelayMs', 'maxDelayMs', 'x'), anyOption),
            anyOption,
          ),
          hooks: fc.oneof(
            fc.dictionary(fc.constantFrom('onRequest', 'onRetry', 'onErr'), anyOption),
            anyOption,
          ),
          transport: anyOption,
          userAgent: anyOption,
          maxResponseBytes: anyOption,
          baseUrl: anyOption,
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(options, (value) => {
        try {
          createClient(value as ClientOptions);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('does not expose the key on the client object', () => {
    const client = createClient({ apiKey: 'CANARY-KEY-1234' });
    expect(JSON.stringify(client)).not.toContain('CANARY');
    expect(Object.values(client).map(String).join()).not.toContain('CANARY');
  });
});

describe('URLs and auth', () => {
  it.each([
    ['with', '/'],
    ['without', ''],
  ])('joins paths %s a trailing slash on the base URL', async (_, slash) => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const client = createClient({
      apiKey: 'k',
      baseUrls: { evm: `${server.url}/api/v2.2${slash}` },
    });
    clients.push(client);
    await client.request({ api: 'evm', method: 'GET', path: '/erc20/0xabc/price', idempotent: true });
    expect(server.requests[0]?.url).toBe('/api/v2.2/erc20/0xabc/price');
  });

  it('encodes query values, repeats arrays and skips undefined and null', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const client = clientFor(server.url);
    await client.request({
      api: 'evm',
      method: 'GET',
      path: '/entities/search',
      query: { query: 'a b&c', limit: 5, skip: undefined, none: null, tag: ['x', 'y'] },
      idempotent: true,
    });
    expect(server.requests[0]?.url).toBe('/api/v2.2/entities/search?query=a%20b%26c&limit=5&tag=x&tag=y');
  });

  it.each<[Api, string | undefined]>([
    ['evm', 'x-api-key'],
    ['streams', 'x-api-key'],
    ['solana', 'x-api-key'],
    ['node', undefined],
  ])('sends the key for the %s interface the way the contract says', async (api, header) => {
    server = await startServer((_req, res) => json(res, 200, { ok: true }));
    const client = clientFor(server.url, { apiKey: 'k/ey+1' });
    await client.request({ api, method: 'POST', path: '/eth', body: { a: 1 }, idempotent: true });
    const sent = server.requests[0]!;
    if (header) {
      expect(sent.headers[header]).toBe('k/ey+1');
      expect(sent.url).not.toContain('k%2Fey');
    } else {
      expect(sent.headers['x-api-key']).toBeUndefined();
      expect(sent.url).toBe('/eth/k%2Fey%2B1');
    }
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toBe('{"a":1}');
  });

  it('encodes a query exactly as URLSearchParams does (spaces as %20), whatever the text', () => {
    const reference = (query: Record<string, string | string[]>) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
      }
      const text = params.toString().replace(/\+/g, '%20');
      return text ? `?${text}` : '';
    };
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom("!'()~*-._ +&=?#/%", '\ud800x', 'é€😀'),
    );
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 }))), (query) => {
        expect(encodeQuery(query)).toBe(reference(query));
      }),
      { numRuns: 3_000 },
    );
  });

  it('sends a path the URL parser would change through the parser, as a URL would be', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const client = clientFor(server.url);
    for (const path of ['/a/../b', '/a/%2e%2E/c', '/sp ace', '/x/./y']) {
      await client.request({ api: 'evm', method: 'GET', path, idempotent: true });
    }
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v2.2/b',
      '/api/v2.2/c',
      '/api/v2.2/sp%20ace',
      '/api/v2.2/x/y',
    ]);
  });

  it('sends a user agent, the default or the given one', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    await clientFor(server.url).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
    await clientFor(server.url, { userAgent: 'my-bot/1.0' }).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
    });
    expect(server.requests[0]?.headers['user-agent']).toMatch(/^blockwire\//);
    expect(server.requests[1]?.headers['user-agent']).toBe('my-bot/1.0');
  });

  it('names the package version in the built User-Agent', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const builtEntry = new URL('../dist/index.js', import.meta.url).href;
    const built = (await import(/* @vite-ignore */ builtEntry)) as typeof import('./index.js');
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const client = built.createClient({ apiKey: 'k', baseUrls: { evm: server.url } });
    clients.push(client);
    await client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
    expect(server.requests[0]?.headers['user-agent']).toBe(
      `blockwire/${version} node/${process.versions.node}`,
    );
  });

  it('returns the parsed body, status and attempts', async () => {
    server = await startServer((_req, res) => json(res, 200, { hello: 'world' }));
    const response = await clientFor(server.url).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
    });
    expect(response).toMatchObject({ status: 200, data: { hello: 'world' }, attempts: 1 });
  });
});

describe('errors from real statuses', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [429, RateLimitError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
    [409, ApiError],
  ])('maps HTTP %i to %o', async (status, ErrorClass) => {
    server = await startServer((_req, res) => json(res, status, { message: `said ${status}` }));
    const error = await caught(
      clientFor(server.url, { retry: false }).request({
        api: 'evm',
        method: 'GET',
        path: '/entities/x',
        idempotent: true,
        operation: 'getEntity',
      }),
    );
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(BlockwireError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      status,
      method: 'GET',
      path: '/entities/x',
      operation: 'getEntity',
      serviceMessage: `said ${status}`,
      attempts: 1,
    });
    expect(error.message).toContain(`said ${status}`);
    expect(error.message).toContain(`GET ${server.url}/api/v2.2/entities/x`);
  });

  it('shows which host was called (a 404 from the wrong base URL), never the key', async () => {
    server = await startServer((_req, res) => json(res, 404, { message: 'Cannot POST' }));
    const client = clientFor(server.url, { apiKey: 'CANARY-KEY-404', retry: false });
    const rest = await caught(
      client.request({ api: 'evm', method: 'GET', path: '/erc20/0xabc/price', idempotent: true }),
    );
    expect(rest.message).toBe(
      `Not found, HTTP 404 for GET ${server.url}/api/v2.2/erc20/0xabc/price: Cannot POST`,
    );
    expect(rest).toMatchObject({ baseUrl: `${server.url}/api/v2.2`, path: '/erc20/0xabc/price' });
    const node = await caught(
      client.request({ api: 'node', method: 'POST', path: '/eth', idempotent: true }),
    );
    expect(node.message).toContain(`for POST ${server.url}/eth/***`);
    expect(JSON.stringify(node) + node.message).not.toContain('CANARY');
  });

  it('reads the service message from a list, plain text, or nothing', async () => {
    const bodies = [
      ['{"message":["a is wrong","b is missing"]}', 'a is wrong; b is missing'],
      ['Bad gateway from upstream', 'Bad gateway from upstream'],
      ['', undefined],
    ] as const;
    for (const [body, expected] of bodies) {
      server = await startServer((_req, res) => {
        res.writeHead(400);
        res.end(body);
      });
      const error = (await caught(
        clientFor(server.url).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
      )) as ApiError;
      expect(error.serviceMessage).toBe(expected);
      if (expected) expect(error.message).toContain(expected);
      await server.close();
      server = undefined;
    }
  });
});

describe('retries', () => {
  it('retries a 503 on a GET and succeeds, calling onRetry each time', async () => {
    server = await startServer((_req, res, i) =>
      i < 2 ? json(res, 503, { message: 'busy' }) : json(res, 200, [1]),
    );
    const retries: number[] = [];
    const response = await clientFor(server.url, {
      hooks: { onRetry: (info) => retries.push(info.attempt) },
    }).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
    expect(server.requests).toHaveLength(3);
    expect(response.attempts).toBe(3);
    expect(retries).toEqual([1, 2]);
  });

  it('gives up after maxAttempts attempts in all, reporting the count', async () => {
    server = await startServer((_req, res) => json(res, 502, {}));
    const error = await caught(
      clientFor(server.url, { retry: { ...fast, maxAttempts: 4 } }).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
    expect(error.attempts).toBe(4);
  });

  it('does not retry a PUT (not safe to repeat) after a 503', async () => {
    server = await startServer((_req, res) => json(res, 503, { message: 'busy' }));
    const error = await caught(
      clientFor(server.url).request({
        api: 'streams',
        method: 'PUT',
        path: '/streams/bitcoin',
        idempotent: false,
      }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    server = await startServer((_req, res) => json(res, 400, { message: 'no' }));
    await caught(clientFor(server.url).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }));
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After in seconds and never undercuts it', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, {}),
    );
    const delays: number[] = [];
    const started = Date.now();
    await clientFor(server.url, { hooks: { onRetry: (info) => delays.push(info.delayMs) } }).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
    });
    expect(delays).toEqual([1_000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('retries a 429 on a request not safe to repeat (the service refused it before doing anything)', async () => {
    const arrivals: number[] = [];
    server = await startServer((_req, res, i) => {
      arrivals.push(performance.now());
      if (i === 0) json(res, 429, { message: 'slow down' }, { 'retry-after': '1' });
      else json(res, 201, { id: 'created' });
    });
    const response = await clientFor(server.url).request({
      api: 'streams',
      method: 'PUT',
      path: '/streams/bitcoin',
      body: { webhookUrl: 'https://example.com' },
      idempotent: false,
    });
    expect(response.data).toEqual({ id: 'created' });
    expect(server.requests).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1_000);
  });

  it('never undercuts Retry-After, not by a millisecond, even when timers fire early', async () => {
    const realSetTimeout = globalThis.setTimeout;
    // Node's timers may fire up to a millisecond early; make every long one do so.
    globalThis.setTimeout = ((fn: () => void, ms?: number) =>
      realSetTimeout(fn, ms !== undefined && ms >= 500 ? ms - 1 : ms)) as typeof setTimeout;
    const sentAt: number[] = [];
    try {
      const client = createClient({
        apiKey: 'k',
        retry: fast,
        transport: async () => {
          sentAt.push(performance.now());
          return sentAt.length === 1
            ? { status: 429, headers: { 'retry-after': '1' }, body: '' }
            : { status: 200, headers: {}, body: '{}' };
        },
      });
      await client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(sentAt).toHaveLength(2);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(1_000);
  });

  it('honours Retry-After as an HTTP date', async () => {
    server = await startServer((_req, res, i) =>
      i === 0
        ? json(res, 503, {}, { 'retry-after': new Date(Date.now() + 1_500).toUTCString() })
        : json(res, 200, {}),
    );
    const delays: number[] = [];
    await clientFor(server.url, { hooks: { onRetry: (info) => delays.push(info.delayMs) } }).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
    });
    expect(server.requests).toHaveLength(2);
    // HTTP dates have one-second resolution: the wait is what is left until that second.
    expect(delays[0]).toBeGreaterThan(0);
    expect(delays[0]).toBeLessThanOrEqual(1_500);
  });

  it('ends with a RateLimitError carrying retryAfterMs when Retry-After exceeds maxDelayMs', async () => {
    server = await startServer((_req, res) => json(res, 429, { message: 'quota' }, { 'retry-after': '120' }));
    const error = await caught(
      clientFor(server.url).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a reset connection on a request safe to repeat', async () => {
    server = await startServer((req, res, i) => {
      if (i === 0) res.socket?.destroy();
      else json(res, 200, { ok: req.method });
    });
    const response = await clientFor(server.url).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
    });
    expect(response.data).toEqual({ ok: 'GET' });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a reset connection on a request not safe to repeat', async () => {
    server = await startServer((_req, res) => {
      res.socket?.destroy();
    });
    const error = await caught(
      clientFor(server.url).request({
        api: 'streams',
        method: 'PUT',
        path: '/streams/bitcoin',
        idempotent: false,
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a refused connection even for a request not safe to repeat, then reports a NetworkError', async () => {
    const url = await refusedUrl();
    const retries: string[] = [];
    const error = await caught(
      clientFor(url, { hooks: { onRetry: (info) => retries.push(info.error.name) } }).request({
        api: 'streams',
        method: 'PUT',
        path: '/streams/bitcoin',
        idempotent: false,
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
    expect(error.attempts).toBe(3);
    expect(retries).toEqual(['NetworkError', 'NetworkError']);
  });

  it('says the emulator may not be running when a loopback address refuses the connection', async () => {
    const url = await refusedUrl();
    const error = await caught(
      clientFor(url, { retry: false }).request({
        api: 'streams',
        method: 'GET',
        path: '/streams',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(
      new RegExp(
        `\\(GET ${url}/streams\\)\\. Nothing is listening at ${new URL(url).host}: is the emulator running\\? Start it with npx blockwire-emulator, or check baseUrls\\.streams$`,
      ),
    );
  });

  it('says which host name does not resolve', async () => {
    const error = await caught(
      clientFor('http://does-not-exist.invalid', { retry: false }).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('GET http://does-not-exist.invalid/api/v2.2/x');
    if ((error as NetworkError).code === 'ENOTFOUND') {
      expect(error.message).toMatch(
        /The host does-not-exist\.invalid does not resolve: check baseUrls\.evm$/,
      );
    }
  });

  it('makes one attempt with retry: false', async () => {
    server = await startServer((_req, res) => json(res, 503, {}));
    await caught(
      clientFor(server.url, { retry: false }).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
      }),
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('timeouts and cancellation', () => {
  it('times out each attempt and retries, then reports a TimeoutError', async () => {
    server = await startServer(() => {
      /* never answers */
    });
    const error = await caught(
      clientFor(server.url, { timeoutMs: 100, retry: { ...fast, maxAttempts: 2 } }).request({
        api: 'evm',
        method: 'GET',
        path: '/slow',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 100, attempts: 2, method: 'GET', path: '/slow' });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a timed-out request that is not safe to repeat', async () => {
    server = await startServer(() => {});
    const error = await caught(
      clientFor(server.url, { timeoutMs: 100 }).request({
        api: 'streams',
        method: 'PUT',
        path: '/streams/bitcoin',
        idempotent: false,
      }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when the caller aborts, with the caller’s reason', async () => {
    server = await startServer(() => {});
    const controller = new AbortController();
    const pending = clientFor(server.url).request({
      api: 'evm',
      method: 'GET',
      path: '/x',
      idempotent: true,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    await expect(pending).rejects.toThrow('user cancelled');
  });

  it('does not sit out a retry delay when the caller aborted before it began', async () => {
    server = await startServer((_req, res) => json(res, 503, {}, { 'retry-after': '60' }));
    const controller = new AbortController();
    const pending = clientFor(server.url, {
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 120_000 },
      hooks: { onRetry: () => controller.abort(new Error('user cancelled')) },
    }).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true, signal: controller.signal });
    const outcome = await Promise.race([
      pending.then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref()),
    ]);
    expect(outcome).toBe('user cancelled');
    expect(server.requests).toHaveLength(1);
  });

  it('lets go of each request once it is done, however long the caller’s signal lives', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const seen: WeakRef<AbortSignal>[] = [];
    const client = createClient({
      apiKey: 'k',
      retry: false,
      transport: async (request) => {
        // What undici does with the signal it is given.
        const onAbort = () => {};
        request.signal.addEventListener('abort', onAbort);
        request.signal.removeEventListener('abort', onAbort);
        seen.push(new WeakRef(request.signal));
        return { status: 200, headers: {}, body: '{}' };
      },
    });
    const longLived = new AbortController();
    for (let i = 0; i < 20; i++) {
      await client.request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
        signal: longLived.signal,
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(seen.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(longLived.signal.aborted).toBe(false);
  });

  it('takes an answer a transport returns without a promise, and fails at once on a malformed one', async () => {
    const answers: unknown[] = [
      { status: 200, headers: {}, body: '{"ok":true}' },
      { status: 200, headers: {} },
    ];
    const client = createClient({
      apiKey: 'k',
      timeoutMs: 60_000,
      retry: false,
      transport: (() => answers.shift()) as never,
    });
    const call = () => client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
    await expect(call()).resolves.toMatchObject({ data: { ok: true } });
    const started = performance.now();
    await expect(call()).rejects.toBeInstanceOf(NetworkError);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('also cuts off a transport that ignores the signal', async () => {
    const client = createClient({
      apiKey: 'k',
      timeoutMs: 50,
      retry: false,
      transport: () => new Promise(() => {}),
    });
    await expect(
      client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('a write whose outcome is unknown', () => {
  const create = { api: 'streams', method: 'PUT', path: '/streams/bitcoin', idempotent: false } as const;

  it.each<[string, (res: ServerResponse) => void, { kind: string }]>([
    ['a reset connection', (res) => res.socket?.destroy(), NetworkError],
    [
      'a reply cut short',
      (res) => {
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"id":"0b2b');
        setTimeout(() => res.socket?.destroy(), 20);
      },
      NetworkError,
    ],
    ['a 500', (res) => json(res, 500, { message: 'boom' }), ServerError],
    ['a 504 from a gateway', (res) => json(res, 504, {}), ServerError],
    ['no answer in time', () => {}, TimeoutError],
  ])('says so after %s: a flag to test and a message saying how to check', async (_, respond, type) => {
    server = await startServer((_req, res) => respond(res));
    const error = await caught(clientFor(server.url, { timeoutMs: 300 }).request(create));
    expect(error).toBeInstanceOf(type);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain('Outcome unknown: the request may have reached the service');
    expect(error.message).toContain('found by its tag');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ outcomeUnknown: true });
    expect(server.requests).toHaveLength(1);
  });

  it('is not said when the service refused, the request never left, or it is safe to repeat', async () => {
    server = await startServer((_req, res) => json(res, 400, { message: 'bad' }));
    expect((await caught(clientFor(server.url).request(create))).outcomeUnknown).toBe(false);
    await server.close();
    server = await startServer((_req, res) => json(res, 501, {}));
    expect((await caught(clientFor(server.url).request(create))).outcomeUnknown).toBe(false);
    await server.close();
    server = await startServer((_req, res) => json(res, 503, {}));
    const read = await caught(clientFor(server.url).request({ ...create, method: 'GET', idempotent: true }));
    expect(read.outcomeUnknown).toBe(false);
    expect(read.message).not.toContain('Outcome unknown');
    const refused = await caught(clientFor(await refusedUrl()).request(create));
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused.outcomeUnknown).toBe(false);
  });
});

describe('response size limit', () => {
  const MiB = 1024 * 1024;

  /** A server whose 200 never ends: it writes as fast as the client reads, counting the bytes. */
  async function endlessServer(headers: Record<string, string> = {}) {
    const sent = { bytes: 0, closed: undefined as Promise<void> | undefined };
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      sent.closed = new Promise((resolve) => res.socket?.once('close', () => resolve()));
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent.bytes += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.write('["');
      pump();
    });
    return sent;
  }

  it('stops an endless body at maxResponseBytes with a typed error, and closes the connection', async () => {
    const sent = await endlessServer();
    const started = performance.now();
    const error = await caught(
      clientFor(server!.url, { maxResponseBytes: MiB }).request({
        api: 'evm',
        method: 'GET',
        path: '/block',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: MiB, status: 200, attempts: 1, method: 'GET', path: '/block' });
    expect(error.message).toMatch(/larger than maxResponseBytes \(1048576 bytes\)/);
    await sent.closed;
    // What the server got to write is the limit plus what socket buffers hold, not gigabytes.
    expect(sent.bytes).toBeLessThan(16 * MiB);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    const sent = await endlessServer({ 'content-length': String(10 * 1024 * MiB) });
    const error = await caught(
      clientFor(server!.url, { maxResponseBytes: MiB }).request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await sent.closed;
    expect(sent.bytes).toBeLessThan(16 * MiB);
  });

  it('refuses a whole answer whose Content-Length is over the limit without an uncaught error', async () => {
    // The body has fully arrived when it is refused: destroying it unread made undici emit an
    // 'error' event nobody listened to, which ended the process.
    const answer = JSON.stringify({ message: 'x'.repeat(2_000) });
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length) });
      res.end(answer);
    });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const client = clientFor(server.url, { maxResponseBytes: 10 });
      for (const method of ['GET', 'POST', 'GET', 'POST'] as const) {
        const body = method === 'POST' ? { addresses: ['a'] } : undefined;
        const error = await caught(
          client.request({ api: 'evm', method, path: '/x', body, idempotent: true }),
        );
        expect(error).toBeInstanceOf(ResponseTooLargeError);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('applies the same limit to a transport of your own, and does not retry', async () => {
    let calls = 0;
    const client = createClient({
      apiKey: 'k',
      maxResponseBytes: 10,
      transport: async () => {
        calls++;
        return { status: 200, headers: {}, body: '"more than ten bytes"' };
      },
    });
    const error = await caught(client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(calls).toBe(1);
  });

  it('reads an answer up to the limit, and defaults to 64 MiB', async () => {
    server = await startServer((_req, res) => json(res, 200, 'x'.repeat(98)));
    const client = clientFor(server.url, { maxResponseBytes: 100 });
    await expect(
      client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
    ).resolves.toMatchObject({ data: 'x'.repeat(98) });
    expect(createClient({ apiKey: 'k' }).maxResponseBytes).toBe(64 * MiB);
    for (const maxResponseBytes of [0, -1, 1.5, Number.NaN, '1000']) {
      expect(() => createClient({ apiKey: 'k', maxResponseBytes } as never)).toThrow(/maxResponseBytes/);
    }
  });
});

describe('hooks', () => {
  it('reports each request and response, and a throwing hook changes nothing', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const seen: string[] = [];
    await clientFor(server.url, {
      hooks: {
        onRequest: (info) => {
          seen.push(`request ${info.method} ${info.path} #${info.attempt}`);
          throw new Error('hook bug');
        },
        onResponse: (info) => seen.push(`response ${info.status}`),
      },
    }).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true, operation: 'op' });
    expect(seen).toEqual(['request GET /x #1', 'response 200']);
  });

  it('lets async hooks reject without an unhandled rejection or a changed outcome (a real process)', () => {
    // Node's default for an unhandled rejection is to exit with code 1: run the built package in
    // a process of its own, where nothing (vitest included) catches it.
    const script = `
      import { createServer } from 'node:http';
      import { createClient } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)};
      let calls = 0;
      const server = createServer((req, res) => {
        calls++;
        res.writeHead(calls === 1 ? 503 : 200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const reject = async () => { throw new Error('hook failed'); };
      const thenable = () => ({ then: () => { throw new Error('odd thenable'); } });
      const client = createClient({
        apiKey: 'k',
        baseUrls: { evm: 'http://127.0.0.1:' + server.address().port },
        retry: { maxAttempts: 2, baseDelayMs: 1 },
        hooks: { onRequest: reject, onResponse: thenable, onRetry: reject },
      });
      const response = await client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      console.log(JSON.stringify({ data: response.data, attempts: response.attempts }));
      await client.close();
      server.close();
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ data: { ok: true }, attempts: 2 });
  });
});

describe('redaction', () => {
  const CANARY = 'CANARY-c4n4ry-5ecret';

  function surfaces(error: unknown): string {
    const e = error as Error & { cause?: Error };
    return [
      e.message,
      e.stack,
      JSON.stringify(e),
      String(e),
      e.cause?.message,
      e.cause?.stack,
      JSON.stringify(e.cause),
      JSON.stringify(Object.entries(e)),
    ].join('\n');
  }

  it('keeps the key out of every error surface and hook argument, on every interface', async () => {
    // The server echoes the key back in its error message, as a careless service might.
    server = await startServer((req, res) =>
      json(res, 500, { message: `bad key ${req.headers['x-api-key']} ${req.url}` }),
    );
    const hookArgs: unknown[] = [];
    const client = clientFor(server.url, {
      apiKey: CANARY,
      hooks: {
        onRequest: (info) => hookArgs.push(info),
        onResponse: (info) => hookArgs.push(info),
        onRetry: (info) => hookArgs.push(info, info.error.message),
      },
    });
    for (const api of ['evm', 'solana', 'streams', 'node'] as const) {
      const error = await caught(
        client.request({ api, method: 'POST', path: '/eth', body: {}, idempotent: true }),
      );
      expect(error).toBeInstanceOf(ServerError);
      expect(surfaces(error)).not.toContain(CANARY);
      expect(surfaces(error)).toContain('***');
    }
    expect(hookArgs.length).toBeGreaterThan(0);
    expect(JSON.stringify(hookArgs)).not.toContain(CANARY);
    expect(JSON.stringify(hookArgs)).toContain('***');
  });

  it('masks echoes of the key however deep, in any case or cut short, on every surface', async () => {
    const echoes = [CANARY, CANARY.toLowerCase(), CANARY.toUpperCase(), CANARY.slice(0, 16)];
    let deep: unknown = { echo: echoes };
    for (let i = 0; i < 30; i++) deep = { [`level${i}`]: deep, [`${CANARY}-${i}`]: i };
    server = await startServer((_req, res) => json(res, 503, { message: echoes.join(' '), deep }));
    const retries: unknown[] = [];
    const error = await caught(
      clientFor(server.url, {
        apiKey: CANARY,
        retry: { ...fast, maxAttempts: 2 },
        hooks: { onRetry: (info) => retries.push(info) },
      }).request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
    );
    const shown = [
      surfaces(error),
      JSON.stringify((error as ServerError).body),
      inspect(error, { depth: Number.POSITIVE_INFINITY }),
      inspect(retries, { depth: Number.POSITIVE_INFINITY }),
    ].join('\n');
    expect(retries).toHaveLength(1);
    for (const echo of echoes) expect(shown).not.toContain(echo);
    expect(shown.toLowerCase()).not.toContain(CANARY.slice(0, 8).toLowerCase());
    expect((error as ServerError).serviceMessage).toBe('*** *** *** ***');
  });

  it('masks the key in the path of the node interface', async () => {
    server = await startServer((_req, res) => json(res, 404, {}));
    const error = await caught(
      clientFor(server.url, { apiKey: CANARY }).request({
        api: 'node',
        method: 'POST',
        path: '/eth',
        idempotent: true,
      }),
    );
    expect(error.path).toBe('/eth/***');
    expect(surfaces(error)).not.toContain(CANARY);
  });

  it('keeps the key out of network errors and their causes', async () => {
    const url = await refusedUrl();
    const error = await caught(
      clientFor(url, { apiKey: CANARY, retry: false }).request({
        api: 'node',
        method: 'POST',
        path: '/eth',
        idempotent: true,
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(surfaces(error)).not.toContain(CANARY);
  });

  it('keeps the URL-encoded form of the key out too', async () => {
    const key = 'has/slash+plus';
    server = await startServer((req, res) => json(res, 500, { message: req.url }));
    const error = await caught(
      clientFor(server.url, { apiKey: key, retry: false }).request({
        api: 'node',
        method: 'POST',
        path: '/eth',
        idempotent: true,
      }),
    );
    expect(surfaces(error)).not.toContain(encodeURIComponent(key));
    expect(surfaces(error)).not.toContain(key);
  });
});
