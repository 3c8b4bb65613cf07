import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import {
  ApiError,
  BlockwireError,
  type ClientOptions,
  createClient,
  JsonRpcError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ServerError,
  ValidationError,
} from '@blockwire/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcClientWith, type Eip1193ErrorFields, type RpcClientOptions } from './client.js';
import { createRpcClient } from './create-rpc-client.js';
import { getTransactionByHashMethod, methods } from './methods/index.js';
import { type Call, callsOf, json, type RecordedRequest, startServer } from './testing/server.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
const clients: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

const fast = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2_000 };

function coreClient(url: string, options: Partial<ClientOptions> = {}) {
  const client = createClient({ apiKey: 'test-key', baseUrls: { node: url }, retry: fast, ...options });
  clients.push(client);
  return client;
}

/** A node that answers every call with a result computed from it, in the order received. */
function answerEach(result: (call: Call) => unknown) {
  return (req: RecordedRequest, res: ServerResponse) => {
    const replies = callsOf(req.json).map((call) => ({ jsonrpc: '2.0', id: call.id, result: result(call) }));
    json(res, 200, Array.isArray(req.json) ? replies : replies[0]);
  };
}

async function rpcFor(
  handler: Parameters<typeof startServer>[0],
  options: Partial<RpcClientOptions> = {},
  clientOptions: Partial<ClientOptions> = {},
) {
  server = await startServer(handler);
  return createRpcClient(coreClient(server.url, clientOptions), { chain: 'avalanche', ...options });
}

async function caught(promise: Promise<unknown>): Promise<BlockwireError> {
  try {
    await promise;
  } catch (error) {
    return error as BlockwireError;
  }
  throw new Error('expected a rejection');
}

describe('createRpcClient options', () => {
  it('accepts only a lowercase path slug as the chain', () => {
    const client = createClient({ apiKey: 'k' });
    for (const chain of ['', 'Avalanche', 'a/b', 'eth mainnet', '../x', undefined, 1]) {
      const error = (() => {
        try {
          createRpcClient(client, { chain } as unknown as RpcClientOptions);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['chain']);
    }
    expect(createRpcClient(client, { chain: 'arbitrum-nova' }).chain).toBe('arbitrum-nova');
  });

  it('caps the batch size at the service limit of 20', () => {
    const client = createClient({ apiKey: 'k' });
    for (const maxSize of [0, 21, 1.5, -1]) {
      expect(() => createRpcClient(client, { chain: 'ronin', batch: { maxSize } })).toThrow(/batch\.maxSize/);
    }
    expect(() => createRpcClient(client, { chain: 'ronin', batch: { waitMs: -1 } })).toThrow(/batch\.waitMs/);
    expect(() =>
      createRpcClient(client, { chain: 'ronin', batch: { maxSize: 20, waitMs: 5 } }),
    ).not.toThrow();
  });
});

describe('mistakes a caller can make', () => {
  it('says the first argument must be a client from createClient()', () => {
    for (const notAClient of [{ chain: 'avalanche' }, undefined, 'key']) {
      expect(() => createRpcClient(notAClient as never, { chain: 'avalanche' })).toThrow(
        'Invalid arguments of createRpcClient: client: must be a client from createClient(), passed first: createRpcClient(client, options)',
      );
    }
  });

  it('never shows the key when it is passed as the chain (the suggestion would echo it lower-cased)', () => {
    const apiKey = 'Kx9-4F2E8D1C7B3A5960';
    const client = createClient({ apiKey });
    let error: unknown;
    try {
      createRpcClient(client, { chain: apiKey });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const shown = [(error as Error).message, (error as Error).stack, JSON.stringify(error)].join('\n');
    expect(shown.toLowerCase()).not.toContain('4f2e8d1c');
  });

  it.each<[unknown, string, RegExp]>([
    [{ chian: 'avalanche' }, 'chian', /is not an option \(did you mean "chain"\?\)/],
    [{ chain: 'ronin', batch: { max: 5 } }, 'batch.max', /did you mean "maxSize"/],
    [{ chain: 'Avalanche' }, 'chain', /\(did you mean "avalanche"\?\)/],
    [{ chain: 'arbitrum nova' }, 'chain', /\(did you mean "arbitrum-nova"\?\)/],
    [{ chain: '..' }, 'chain', /lowercase letters, digits and dashes/],
    [{ chain: '%2e%2e' }, 'chain', /lowercase letters, digits and dashes/],
    [{ chain: 'a\uD800' }, 'chain', /lowercase letters/],
    [{ chain: 'ronin', batch: { waitMs: 2 ** 31 } }, 'batch.waitMs', /at most|from 0 to/],
    [{ chain: 'ronin', batch: 'yes' }, 'batch', /must be an object/],
    [null, '', /needs options such as \{ chain: "avalanche" \}/],
  ])('refuses the options %j, naming %s', (options, path, message) => {
    const client = createClient({ apiKey: 'k' });
    let error: unknown;
    try {
      createRpcClient(client, options as RpcClientOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual({
      path,
      message: expect.stringMatching(message),
    });
  });

  it('refuses call options that are not { signal } with a ValidationError, not a TypeError', async () => {
    const rpc = await rpcFor(answerEach(() => null));
    const hash = `0x${'ab'.repeat(32)}`;
    for (const [call, path] of [
      [() => rpc.getTransactionByHash(hash, null as never), 'options'],
      [() => rpc.getTransactionByHash(hash, 'fast' as never), 'options'],
      [() => rpc.getBlockByNumber('latest', false, { timeout: 1 } as never), 'options.timeout'],
      [() => rpc.request({ method: 'eth_chainId' }, null as never), 'options'],
      [() => rpc.call(getTransactionByHashMethod, { hash }, { signal: 'stop' } as never), 'options.signal'],
    ] as const) {
      const error = await caught(call());
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe(path);
    }
    const untyped = rpc.getTransactionByHash as (...args: unknown[]) => Promise<unknown>;
    expect(await caught(untyped(hash, {}, 'extra'))).toBeInstanceOf(ValidationError);
    expect(await caught(rpc.call({} as never, {} as never))).toBeInstanceOf(ValidationError);
    expect(server!.requests).toHaveLength(0);
  });

  it('answers any positional arguments of every method with a result or a ValidationError (fuzzed)', async () => {
    const rpc = await rpcFor(answerEach(() => null));
    const anyArg = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.constantFrom(null, undefined, 'latest', 0, -1, 2n ** 300n, `0x${'ab'.repeat(32)}`, 'a\uD800', {}),
    );
    for (const method of methods) {
      await fc.assert(
        fc.asyncProperty(fc.array(anyArg, { maxLength: method.args.length + 2 }), async (args) => {
          const call = (rpc as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method.id]!;
          try {
            await call(...args);
          } catch (error) {
            // The node answers null: a method whose result is never null refuses that answer.
            if (error instanceof ResponseValidationError)
              expect(method.result.safeParse(null).success).toBe(false);
            else expect(error).toBeInstanceOf(ValidationError);
          }
        }),
        { numRuns: 150 },
      );
    }
  });
});

describe('hostile or broken nodes', () => {
  it('stops an endless answer at maxResponseBytes for every caller of the batch, and closes the connection', async () => {
    let sent = 0;
    let closed: Promise<void> | undefined;
    const rpc = await rpcFor(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        closed = new Promise((resolve) => res.socket?.once('close', () => resolve()));
        const chunk = Buffer.alloc(64 * 1024, ' ');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.write('[');
        pump();
      },
      {},
      { maxResponseBytes: 1024 * 1024 },
    );
    const settled = await Promise.allSettled([
      rpc.getBlockByNumber('latest'),
      rpc.request({ method: 'eth_chainId' }),
    ]);
    for (const outcome of settled) {
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ResponseTooLargeError);
    }
    await closed;
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('masks the key echoed in a JSON-RPC error, however deep and in whatever case', async () => {
    const key = 'CANARY-rpc-key-0123456789';
    let data: unknown = [key.toLowerCase(), key.slice(0, 12)];
    for (let i = 0; i < 40; i++) data = { nested: data, [key.toUpperCase()]: i };
    const rpc = await rpcFor(
      (req, res) =>
        json(res, 200, {
          jsonrpc: '2.0',
          id: callsOf(req.json)[0]!.id,
          error: { code: -32000, message: `bad ${key.toUpperCase()}`, data },
        }),
      {},
      { apiKey: key },
    );
    const error = await caught(rpc.request({ method: 'eth_call', params: [] }));
    expect(error).toBeInstanceOf(JsonRpcError);
    const shown = `${error.message}\n${JSON.stringify(error)}\n${inspect(error, { depth: Number.POSITIVE_INFINITY })}`;
    expect(shown.toLowerCase()).not.toContain(key.slice(0, 8).toLowerCase());
  });

  it('says a state-changing call whose answer was lost may have taken effect, and a read does not', async () => {
    const rpc = await rpcFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('{"jsonrpc":"2.0","id":1,"result":"0x');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const send = await caught(rpc.request({ method: 'eth_sendRawTransaction', params: ['0x02'] }));
    expect(send.outcomeUnknown).toBe(true);
    expect(send.message).toContain('Outcome unknown');
    server!.respond = (_req, res) => json(res, 200, 'not a JSON-RPC answer');
    const unreadable = await caught(rpc.request({ method: 'eth_sendRawTransaction', params: ['0x02'] }));
    expect(unreadable).toBeInstanceOf(ResponseValidationError);
    expect(unreadable.outcomeUnknown).toBe(true);
    const read = await caught(rpc.request({ method: 'eth_chainId' }));
    expect(read.outcomeUnknown).toBe(false);
  });
});

describe('request()', () => {
  it('sends one call as a plain JSON-RPC object to POST /<chain>/<key>', async () => {
    const rpc = await rpcFor(answerEach(() => '0x7a69'));
    await expect(rpc.request({ method: 'eth_chainId' })).resolves.toBe('0x7a69');
    const [sent] = server!.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/avalanche/test-key');
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.json).toEqual({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
  });

  it('passes params through untouched, by position or by name', async () => {
    const rpc = await rpcFor(answerEach((call) => call.params));
    await expect(rpc.request({ method: 'eth_call', params: [{ to: '0x1' }, 'latest'] })).resolves.toEqual([
      { to: '0x1' },
      'latest',
    ]);
    await expect(rpc.request({ method: 'x_named', params: { a: 1 } })).resolves.toEqual({ a: 1 });
  });

  it('rejects a request without a method name before sending anything', async () => {
    const rpc = await rpcFor(answerEach(() => null));
    for (const args of [{}, { method: '' }, { method: 5 }, null]) {
      const error = await caught(rpc.request(args as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toMatch(/method/);
    }
    expect(await caught(rpc.request({ method: 'eth_x', params: 'nope' as never }))).toBeInstanceOf(
      ValidationError,
    );
    expect(server!.requests).toHaveLength(0);
  });

  it('surfaces a JSON-RPC error as JsonRpcError with code, message and data (what viem and ethers read)', async () => {
    const rpc = await rpcFor((_req, res) =>
      json(res, 200, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32000, message: 'execution reverted', data: '0x08c3' },
      }),
    );
    const error = (await caught(rpc.request({ method: 'eth_call', params: [] }))) as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32000);
    expect(error.data).toBe('0x08c3');
    expect(error.rpcMethod).toBe('eth_call');
    expect(error.message).toContain('execution reverted');
    expect(error.path).toBe('/avalanche/***');
  });

  it('treats a result of null as a result', async () => {
    const rpc = await rpcFor(answerEach(() => null));
    await expect(rpc.request({ method: 'eth_getTransactionByHash', params: ['0x00'] })).resolves.toBeNull();
  });
});

describe('batching', () => {
  it('sends the calls of one tick as one batch with unique, increasing ids', async () => {
    const rpc = await rpcFor(answerEach((call) => `${call.method}:${call.id}`));
    const results = await Promise.all([
      rpc.request({ method: 'a' }),
      rpc.request({ method: 'b' }),
      rpc.request({ method: 'c' }),
    ]);
    expect(results).toEqual(['a:1', 'b:2', 'c:3']);
    expect(server!.requests).toHaveLength(1);
    expect(callsOf(server!.requests[0]!.json).map((c) => [c.id, c.method])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(Array.isArray(server!.requests[0]!.json)).toBe(true);
    await rpc.request({ method: 'd' });
    expect(server!.requests[1]!.json).toMatchObject({ id: 4, method: 'd' });
  });

  it('splits a large batch into HTTP requests of at most maxSize calls', async () => {
    const rpc = await rpcFor(answerEach((call) => call.params[0]));
    const results = await Promise.all(
      Array.from({ length: 45 }, (_, i) => rpc.request({ method: 'echo', params: [i] })),
    );
    expect(results).toEqual(Array.from({ length: 45 }, (_, i) => i));
    expect(server!.requests.map((r) => callsOf(r.json).length)).toEqual([20, 20, 5]);
  });

  it('honours a smaller maxSize', async () => {
    const rpc = await rpcFor(
      answerEach((call) => call.params[0]),
      { batch: { maxSize: 4 } },
    );
    await Promise.all(Array.from({ length: 9 }, (_, i) => rpc.request({ method: 'echo', params: [i] })));
    expect(server!.requests.map((r) => callsOf(r.json).length)).toEqual([4, 4, 1]);
    expect(Array.isArray(server!.requests[2]!.json)).toBe(false);
  });

  it('gathers calls for waitMs before sending', async () => {
    const rpc = await rpcFor(
      answerEach((call) => call.method),
      { batch: { waitMs: 300 } },
    );
    const first = rpc.request({ method: 'first' });
    await new Promise((resolve) => setImmediate(resolve));
    const second = rpc.request({ method: 'second' });
    await expect(Promise.all([first, second])).resolves.toEqual(['first', 'second']);
    expect(server!.requests).toHaveLength(1);
  });

  it('merges identical calls in flight into one, and gives every caller its answer', async () => {
    const rpc = await rpcFor(answerEach((call) => `${call.method}:${JSON.stringify(call.params)}`));
    const results = await Promise.all([
      rpc.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] }),
      rpc.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] }),
      rpc.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] }),
      rpc.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] }),
    ]);
    expect(results).toEqual([
      'eth_getBlockByNumber:["0x1",true]',
      'eth_getBlockByNumber:["0x1",true]',
      'eth_getBlockByNumber:["0x1",false]',
      'eth_getBlockByNumber:["0x1",true]',
    ]);
    expect(server!.requests).toHaveLength(1);
    expect(callsOf(server!.requests[0]!.json)).toHaveLength(2);
    // Only calls in flight are merged: the same call later is sent again.
    await rpc.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] });
    expect(server!.requests).toHaveLength(2);
  });

  it('forgets a merged call that failed: the same call later is sent again', async () => {
    let answered = 0;
    const rpc = await rpcFor((req, res) => {
      answered += 1;
      const [call] = callsOf(req.json);
      if (answered === 1)
        json(res, 200, { jsonrpc: '2.0', id: call!.id, error: { code: -32000, message: 'busy' } });
      else json(res, 200, { jsonrpc: '2.0', id: call!.id, result: 'ok' });
    });
    const failing = [rpc.request({ method: 'eth_chainId' }), rpc.request({ method: 'eth_chainId' })];
    await expect(Promise.all(failing)).rejects.toThrow('busy');
    await expect(rpc.request({ method: 'eth_chainId' })).resolves.toBe('ok');
    expect(server!.requests).toHaveLength(2);
  });

  it('fails a call whose host timer throws, and does not keep it for identical calls', async () => {
    server = await startServer(answerEach(() => 'ok'));
    let refuse = true;
    const rpc = createRpcClientWith(
      coreClient(server.url),
      { chain: 'avalanche' },
      {
        after(ms, run) {
          if (refuse) throw new Error('no timers here');
          const timer = setTimeout(run, ms);
          return () => clearTimeout(timer);
        },
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      },
    );
    await expect(rpc.request({ method: 'eth_chainId' })).rejects.toThrow('no timers here');
    refuse = false;
    await expect(rpc.request({ method: 'eth_chainId' })).resolves.toBe('ok');
  });

  it('never merges calls that change state or poll a filter', async () => {
    const rpc = await rpcFor(answerEach((call) => call.id));
    const results = await Promise.all([
      rpc.request({ method: 'eth_sendRawTransaction', params: ['0x01'] }),
      rpc.request({ method: 'eth_sendRawTransaction', params: ['0x01'] }),
      rpc.request({ method: 'eth_getFilterChanges', params: ['0x2'] }),
      rpc.request({ method: 'eth_getFilterChanges', params: ['0x2'] }),
    ]);
    expect(new Set(results).size).toBe(4);
    expect(callsOf(server!.requests[0]!.json)).toHaveLength(4);
  });

  it('lets one caller of a merged call give up without cancelling it for the others', async () => {
    const rpc = await rpcFor(
      answerEach((call) => call.method),
      { batch: { waitMs: 50 } },
    );
    const giveUp = new AbortController();
    const leaving = rpc.request({ method: 'eth_chainId' }, { signal: giveUp.signal });
    const staying = rpc.request({ method: 'eth_chainId' }, { signal: new AbortController().signal });
    giveUp.abort(new Error('not any more'));
    await expect(leaving).rejects.toThrow('not any more');
    await expect(staying).resolves.toBe('eth_chainId');
    expect(server!.requests).toHaveLength(1);
  });

  it('does not send a merged call once every caller has given up', async () => {
    const rpc = await rpcFor(
      answerEach((call) => call.method),
      { batch: { waitMs: 50 } },
    );
    const first = new AbortController();
    const second = new AbortController();
    const calls = [
      rpc.request({ method: 'eth_chainId' }, { signal: first.signal }),
      rpc.request({ method: 'eth_chainId' }, { signal: second.signal }),
    ];
    first.abort(new Error('first gave up'));
    second.abort(new Error('second gave up'));
    await expect(calls[0]).rejects.toThrow('first gave up');
    await expect(calls[1]).rejects.toThrow('second gave up');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server!.requests).toHaveLength(0);
    await expect(rpc.request({ method: 'eth_chainId' })).resolves.toBe('eth_chainId');
  });

  it('sends one HTTP request per call with batch: false', async () => {
    const rpc = await rpcFor(
      answerEach((call) => call.method),
      { batch: false },
    );
    await expect(Promise.all([rpc.request({ method: 'a' }), rpc.request({ method: 'b' })])).resolves.toEqual([
      'a',
      'b',
    ]);
    expect(server!.requests).toHaveLength(2);
    for (const r of server!.requests) expect(Array.isArray(r.json)).toBe(false);
  });

  it('matches responses by id when the server reorders them', async () => {
    const rpc = await rpcFor((req, res) => {
      const replies = callsOf(req.json).map((call) => ({ jsonrpc: '2.0', id: call.id, result: call.method }));
      json(res, 200, replies.reverse());
    });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((method) => rpc.request({ method })));
    expect(results).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives only the failing call its JsonRpcError', async () => {
    const rpc = await rpcFor((req, res) =>
      json(
        res,
        200,
        callsOf(req.json).map((call) =>
          call.method === 'bad'
            ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }
            : { jsonrpc: '2.0', id: call.id, result: call.method },
        ),
      ),
    );
    const [a, bad, c] = await Promise.allSettled([
      rpc.request({ method: 'a' }),
      rpc.request({ method: 'bad' }),
      rpc.request({ method: 'c' }),
    ]);
    expect(a).toEqual({ status: 'fulfilled', value: 'a' });
    expect(c).toEqual({ status: 'fulfilled', value: 'c' });
    expect(bad.status).toBe('rejected');
    const error = (bad as PromiseRejectedResult).reason as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32601);
    expect(error.rpcMethod).toBe('bad');
  });

  it('fails only the caller whose id is missing from the batch response', async () => {
    const rpc = await rpcFor((req, res) =>
      json(
        res,
        200,
        callsOf(req.json)
          .filter((call) => call.method !== 'lost')
          .map((call) => ({ jsonrpc: '2.0', id: call.id, result: call.method })),
      ),
    );
    const [a, lost] = await Promise.allSettled([
      rpc.request({ method: 'a' }),
      rpc.request({ method: 'lost' }),
    ]);
    expect(a).toEqual({ status: 'fulfilled', value: 'a' });
    const error = (lost as PromiseRejectedResult).reason as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/no answer for call id 2 \(lost\)/);
  });

  it('gives every caller the error when the server rejects the batch as a whole', async () => {
    const rpc = await rpcFor((_req, res) =>
      json(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } }),
    );
    const settled = await Promise.allSettled([rpc.request({ method: 'a' }), rpc.request({ method: 'b' })]);
    for (const outcome of settled) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: -32600 });
    }
  });

  it('gives the callers left unanswered the error a batch array carries with id null', async () => {
    // Some nodes reject the calls they cannot parse inside the array, with id null.
    const rpc = await rpcFor((req, res) =>
      json(res, 200, [
        { jsonrpc: '2.0', id: callsOf(req.json)[0]?.id, result: 'a' },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      ]),
    );
    const [a, b] = await Promise.allSettled([rpc.request({ method: 'a' }), rpc.request({ method: 'b' })]);
    expect(a).toEqual({ status: 'fulfilled', value: 'a' });
    const error = (b as PromiseRejectedResult).reason as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32600, rpcMethod: 'b' });
  });

  it('refuses to pick between two answers with the same id', async () => {
    const rpc = await rpcFor((req, res) => {
      const [first, second] = callsOf(req.json);
      json(res, 200, [
        { jsonrpc: '2.0', id: first?.id, result: 'one' },
        { jsonrpc: '2.0', id: first?.id, result: 'other' },
        { jsonrpc: '2.0', id: second?.id, result: 'b' },
      ]);
    });
    const [a, b] = await Promise.allSettled([rpc.request({ method: 'a' }), rpc.request({ method: 'b' })]);
    expect(b).toEqual({ status: 'fulfilled', value: 'b' });
    const error = (a as PromiseRejectedResult).reason as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/2 answers for call id 1 \(a\)/);
  });

  it('reports a body that is not JSON-RPC to every caller', async () => {
    const rpc = await rpcFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const settled = await Promise.allSettled([rpc.request({ method: 'a' }), rpc.request({ method: 'b' })]);
    for (const outcome of settled) {
      const error = (outcome as PromiseRejectedResult).reason as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(/not a JSON-RPC answer \(not JSON\)/);
    }
  });

  it('takes an error over a result when an answer carries both', async () => {
    const rpc = await rpcFor((_req, res) =>
      json(res, 200, { jsonrpc: '2.0', id: 1, result: '0x1', error: { code: -32000, message: 'reverted' } }),
    );
    const error = await caught(rpc.request({ method: 'a' }));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32000 });
  });

  it('reports an answer with neither result nor error', async () => {
    const rpc = await rpcFor((_req, res) => json(res, 200, { jsonrpc: '2.0', id: 1 }));
    expect(await caught(rpc.request({ method: 'a' }))).toBeInstanceOf(ResponseValidationError);
  });
});

describe('rate limits and HTTP failures', () => {
  it('retries only the call that got -32005 (limit exceeded), then resolves it', async () => {
    let limited = 0;
    const rpc = await rpcFor((req, res) => {
      const replies = callsOf(req.json).map((call) =>
        call.method === 'busy' && limited++ === 0
          ? { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: 'limit exceeded' } }
          : { jsonrpc: '2.0', id: call.id, result: call.method },
      );
      json(res, 200, Array.isArray(req.json) ? replies : replies[0]);
    });
    const results = await Promise.all([rpc.request({ method: 'ok' }), rpc.request({ method: 'busy' })]);
    expect(results).toEqual(['ok', 'busy']);
    expect(server!.requests).toHaveLength(2);
    // Only the limited call is sent again, alone, under a new id.
    expect(server!.requests[1]!.json).toEqual({ jsonrpc: '2.0', id: 3, method: 'busy', params: [] });
  });

  it('gives up after the retry policy is exhausted with the -32005 JsonRpcError', async () => {
    const rpc = await rpcFor((req, res) =>
      json(res, 200, {
        jsonrpc: '2.0',
        id: (req.json as Call).id,
        error: { code: -32005, message: 'slow down' },
      }),
    );
    const error = (await caught(rpc.request({ method: 'a' }))) as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32005);
    expect(error.attempts).toBe(3);
    expect(server!.requests).toHaveLength(3);
  });

  it('does not retry -32005 when the client is built with retry: false', async () => {
    const rpc = await rpcFor(
      (req, res) =>
        json(res, 200, {
          jsonrpc: '2.0',
          id: (req.json as Call).id,
          error: { code: -32005, message: 'slow down' },
        }),
      {},
      { retry: false },
    );
    expect(await caught(rpc.request({ method: 'a' }))).toMatchObject({ code: -32005 });
    expect(server!.requests).toHaveLength(1);
  });

  it('lets core retry an HTTP 429, then resolves', async () => {
    const rpc = await rpcFor((req, res, index) => {
      if (index === 0) return json(res, 429, { message: 'too many' }, { 'retry-after': '0' });
      answerEach(() => 'fine')(req, res);
    });
    await expect(rpc.request({ method: 'a' })).resolves.toBe('fine');
    expect(server!.requests).toHaveLength(2);
  });

  it('turns an exhausted 429 into RateLimitError', async () => {
    const rpc = await rpcFor((_req, res) => json(res, 429, { message: 'too many' }));
    expect(await caught(rpc.request({ method: 'a' }))).toBeInstanceOf(RateLimitError);
  });

  it('maps a 5xx of the node URL to ServerError for every caller, key masked in the path', async () => {
    const rpc = await rpcFor((_req, res) => json(res, 502, { message: 'bad gateway' }));
    const settled = await Promise.allSettled([rpc.request({ method: 'a' }), rpc.request({ method: 'b' })]);
    for (const outcome of settled) {
      const error = (outcome as PromiseRejectedResult).reason as ServerError;
      expect(error).toBeInstanceOf(ServerError);
      expect(error.status).toBe(502);
      expect(error.path).toBe('/avalanche/***');
      expect(error.message).toContain(`POST ${server!.url}/avalanche/***`);
    }
    expect(server!.requests).toHaveLength(3);
  });

  it.each([
    [401, 4100],
    [403, 4100],
    [404, -32001],
    [413, -32005],
    [429, -32005],
    [400, -32600],
    [500, -32603],
    [503, -32603],
  ])(
    'rejects request() on an HTTP %i with the SDK error carrying the EIP-1474 code %i',
    async (status, code) => {
      const rpc = await rpcFor(
        (_req, res) => json(res, status, { message: 'no' }, { 'retry-after': '3' }),
        {},
        { retry: false },
      );
      const error = await caught(rpc.request({ method: 'eth_blockNumber' }));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, code, message: expect.stringContaining(`HTTP ${status}`) });
      expect((error as unknown as Eip1193ErrorFields).data).toMatchObject({ status });
      if (status === 429) {
        expect(error).toBeInstanceOf(RateLimitError);
        expect(error).toMatchObject({ retryAfterMs: 3000, data: { status, retryAfterMs: 3000 } });
      }
      expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('test-key');
    },
  );

  it("gives the code to request()'s error only: a typed call failed by the same batch keeps its error as it was", async () => {
    const rpc = await rpcFor((_req, res) => json(res, 429, { message: 'too many' }), {}, { retry: false });
    const [raw, typed] = await Promise.allSettled([
      rpc.request({ method: 'eth_chainId' }),
      rpc.getTransactionByHash(`0x${'ab'.repeat(32)}`),
    ]);
    expect(server!.requests).toHaveLength(1);
    expect((raw as PromiseRejectedResult).reason).toMatchObject({ code: -32005 });
    const typedError = (typed as PromiseRejectedResult).reason;
    expect(typedError).toBeInstanceOf(RateLimitError);
    expect(typedError).not.toHaveProperty('code');
  });

  it('does not repeat a state-changing call after a 5xx', async () => {
    const rpc = await rpcFor((_req, res) => json(res, 503, { message: 'down' }));
    expect(await caught(rpc.request({ method: 'eth_sendRawTransaction', params: ['0x01'] }))).toBeInstanceOf(
      ServerError,
    );
    expect(server!.requests).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('drops a call aborted before its batch is sent and keeps the others', async () => {
    const rpc = await rpcFor(answerEach((call) => call.method));
    const controller = new AbortController();
    const dropped = rpc.request({ method: 'dropped' }, { signal: controller.signal });
    const kept = rpc.request({ method: 'kept' });
    controller.abort(new Error('changed my mind'));
    await expect(dropped).rejects.toThrow('changed my mind');
    await expect(kept).resolves.toBe('kept');
    expect(callsOf(server!.requests[0]!.json).map((c) => c.method)).toEqual(['kept']);
  });

  it('lets a caller give up on a call in flight without cancelling the batch for the others', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rpc = await rpcFor(async (req, res) => {
      await held;
      answerEach((call) => call.method)(req, res);
    });
    const controller = new AbortController();
    const impatient = rpc.request({ method: 'impatient' }, { signal: controller.signal });
    const patient = rpc.request({ method: 'patient' });
    while (server!.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('took too long'));
    await expect(impatient).rejects.toThrow('took too long');
    release();
    await expect(patient).resolves.toBe('patient');
    expect(callsOf(server!.requests[0]!.json)).toHaveLength(2);
  });

  it('cancels the HTTP request of a batch once every one of its callers gave up', async () => {
    let closedEarly = false;
    const rpc = await rpcFor(
      (_req, res) =>
        new Promise<void>((resolve) => {
          // Never answers: only the client can end this request.
          res.on('close', () => {
            closedEarly = !res.writableEnded;
            resolve();
          });
        }),
    );
    const first = new AbortController();
    const second = new AbortController();
    const calls = [
      rpc.request({ method: 'a' }, { signal: first.signal }),
      rpc.request({ method: 'b' }, { signal: second.signal }),
    ];
    while (server!.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    first.abort(new Error('first gave up'));
    second.abort(new Error('second gave up'));
    await expect(calls[0]).rejects.toThrow('first gave up');
    await expect(calls[1]).rejects.toThrow('second gave up');
    while (!closedEarly) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(callsOf(server!.requests[0]!.json)).toHaveLength(2);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const rpc = await rpcFor(answerEach(() => 1));
    await expect(
      rpc.request({ method: 'a' }, { signal: AbortSignal.abort(new Error('no')) }),
    ).rejects.toThrow('no');
    // A typed method too: a rejected promise, never a throw where the call is made.
    const typed = rpc.getBlockByNumber(1, false, { signal: AbortSignal.abort(new Error('no')) });
    expect(typed).toBeInstanceOf(Promise);
    await expect(typed).rejects.toThrow('no');
    expect(server!.requests).toHaveLength(0);
  });

  it('rejects bad arguments of a typed method, never throwing where the call is made', async () => {
    const rpc = await rpcFor(answerEach(() => 1));
    const calls = [
      () => rpc.getBlockByNumber(-1),
      () => (rpc.getBlockByNumber as (...args: unknown[]) => Promise<unknown>)(1, false, undefined, 'extra'),
      () => rpc.getBlockByNumber(1, false, 'fast' as never),
      () => rpc.call({} as never, {} as never),
    ];
    for (const call of calls) {
      const result = call();
      expect(result).toBeInstanceOf(Promise);
      await expect(result).rejects.toBeInstanceOf(ValidationError);
    }
    expect(server!.requests).toHaveLength(0);
  });
});

describe('the API key in the URL path', () => {
  const canary = 'canary-K3Y-5f3a9c0e';

  it('appears in no error, hook argument or log line, even when the server echoes it', async () => {
    const seen: unknown[] = [];
    const logged: unknown[] = [];
    const consoleMethods = ['log', 'info', 'warn', 'error', 'debug'] as const;
    const originals = consoleMethods.map((name) => console[name]);
    for (const name of consoleMethods) console[name] = (...args: unknown[]) => void logged.push(args);
    try {
      server = await startServer((req, res, index) => {
        const echo = `you called ${req.url} with key ${canary}`;
        const calls = callsOf(req.json);
        if (calls.some((c) => c.method === 'http500')) return json(res, 500, { message: echo, url: req.url });
        if (calls.some((c) => c.method === 'http401')) return json(res, 401, echo);
        const replies = calls.map((call) => ({
          jsonrpc: '2.0',
          id: call.id,
          error: {
            code: call.method === 'limited' && index < 5 ? -32005 : -32000,
            message: echo,
            data: { url: req.url, [canary]: [canary] },
          },
        }));
        json(res, 200, Array.isArray(req.json) ? replies : replies[0]);
      });
      const client = coreClient(server.url, {
        apiKey: canary,
        hooks: {
          onRequest: (info) => seen.push(info),
          onResponse: (info) => seen.push(info),
          onRetry: (info) => seen.push(info),
        },
      });
      const rpc = createRpcClient(client, { chain: 'mantle' });
      const errors = (
        await Promise.allSettled([
          rpc.request({ method: 'rpcError' }),
          rpc.request({ method: 'limited' }),
          rpc.getTransactionByHash(`0x${'ab'.repeat(32)}`),
        ])
      ).map((outcome) => (outcome as PromiseRejectedResult).reason);
      errors.push(await caught(rpc.request({ method: 'http500' })));
      errors.push(await caught(rpc.request({ method: 'http401' })));
      expect(errors).toHaveLength(5);
      expect(server.requests.some((r) => r.url === `/mantle/${canary}`)).toBe(true);
      expect(seen.length).toBeGreaterThan(5);

      for (const error of errors) {
        expect(error).toBeInstanceOf(BlockwireError);
        const texts = [
          error.message,
          error.stack,
          JSON.stringify(error),
          JSON.stringify(error.cause ?? null),
          String(error.cause ?? ''),
          JSON.stringify((error as { data?: unknown }).data ?? null),
          JSON.stringify((error as { body?: unknown }).body ?? null),
        ];
        for (const text of texts) expect(text).not.toContain(canary);
      }
      expect(JSON.stringify(seen)).not.toContain(canary);
      expect(JSON.stringify(seen)).toContain('/mantle/***');
      expect(JSON.stringify(logged)).not.toContain(canary);
    } finally {
      consoleMethods.forEach((name, i) => {
        console[name] = originals[i]!;
      });
    }
  });
});
