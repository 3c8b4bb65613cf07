import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@blockwire/core';
import { keccak } from 'hash-wasm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  bitcoinDelivery,
  CONFIRMED_DELIVERY,
  EVM_DELIVERY,
  IN_BLOCK_DELIVERY,
  MEMPOOL_DELIVERY,
  txidOf,
  VERIFICATION_PAYLOAD,
} from './__fixtures__/bitcoin.js';
import {
  type BitcoinDeliveryContext,
  createWebhookHandler,
  toNodeListener,
  UNSIGNED_BODY_LIMIT,
  type WebhookErrorContext,
  type WebhookHandlerOptions,
} from './handler.js';
import type { BitcoinDeliveryStage, BitcoinWebhook } from './payloads.js';
import { signBody } from './signature.js';
import { createSqliteTxStore } from './sqlite-store.js';
import { createBitcoinTxTracker } from './tracker.js';

const SECRET = 'whsec_3c1d9f0e';
const servers: Server[] = [];
const dir = mkdtempSync(join(tmpdir(), 'blockwire-handler-'));

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
}

function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const bitcoin: Array<{ payload: BitcoinWebhook; context: BitcoinDeliveryContext }> = [];
  const evm: unknown[] = [];
  const errors: Array<{ error: unknown; context: WebhookErrorContext }> = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    onBitcoin: (payload, context) => {
      bitcoin.push({ payload, context });
    },
    onEvm: (payload) => {
      evm.push(payload);
    },
    onError: (error, context) => {
      errors.push({ error, context });
    },
    ...options,
  });
  return { handler, bitcoin, evm, errors };
}

async function post(url: string, body: string, signature?: string | null, method = 'POST') {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature) headers['x-signature'] = signature;
  const response = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body }) });
  return { status: response.status, body: await response.json() };
}

/** Posts `text` in 4 KB writes with no Content-Length (chunked), as a streaming proxy would. */
async function postInChunks(url: string, text: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature) headers['x-signature'] = signature;
  const sent = request(url, { method: 'POST', headers });
  for (let at = 0; at < text.length; at += 4096) sent.write(text.slice(at, at + 4096));
  sent.end();
  const [response] = (await once(sent, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return { status: response.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
}

/** The signature of a text exactly as it is (signBody parses it first, so it takes JSON only). */
async function signRaw(text: string): Promise<string> {
  return `0x${await keccak(text + SECRET, 256)}`;
}

async function deliver(url: string, payload: unknown, secret = SECRET) {
  const text = JSON.stringify(payload);
  return post(url, text, await signBody(text, secret));
}

describe('createWebhookHandler over node:http', () => {
  it('answers the verification POST with 200 and calls nothing', async () => {
    const { handler, bitcoin, evm, errors } = receiver();
    const url = await listen(handler.node);
    expect((await post(url, '')).status).toBe(200);
    expect((await post(url, '{}')).status).toBe(200);
    expect(await post(url, JSON.stringify(VERIFICATION_PAYLOAD))).toEqual({
      status: 200,
      body: { ok: true, message: 'verification request' },
    });
    await handler.idle();
    expect([bitcoin, evm, errors]).toEqual([[], [], []]);
  });

  it('refuses a missing or wrong signature with 401, malformed JSON with 400, other methods with 405', async () => {
    const tracker = createBitcoinTxTracker();
    const { handler, bitcoin } = receiver({ tracker });
    const url = await listen(handler.node);
    const text = JSON.stringify(MEMPOOL_DELIVERY);
    expect(await post(url, text)).toEqual({
      status: 401,
      body: { ok: false, message: 'the x-signature header is missing' },
    });
    expect((await post(url, text, await signBody(text, 'another secret'))).status).toBe(401);
    expect((await post(url, text, '0xdeadbeef')).status).toBe(401);
    const tampered = text.replace('0.001', '0.002');
    expect((await post(url, tampered, await signBody(text, SECRET))).status).toBe(401);
    // Signed as it is but not JSON: only a body whose bytes carry the signature is ever parsed.
    expect((await post(url, '{"streamId":', await signBody(text, SECRET))).status).toBe(401);
    expect((await post(url, '{"streamId":', await signRaw('{"streamId":'))).status).toBe(400);
    expect((await post(url, '', null, 'GET')).status).toBe(405);
    await handler.idle();
    expect(bitcoin).toEqual([]);
    expect(await tracker.get(txidOf(1))).toBeUndefined();
  });

  it('accepts a signed delivery, records it, answers 200, then calls back with what changed', async () => {
    const tracker = createBitcoinTxTracker();
    const { handler, bitcoin } = receiver({ tracker });
    const url = await listen(handler.node);
    // The service sends exactly the text it signs: the bytes as received are what is hashed.
    const compact = JSON.stringify(MEMPOOL_DELIVERY);
    expect(await post(url, compact, await signBody(MEMPOOL_DELIVERY, SECRET))).toEqual({
      status: 200,
      body: { ok: true, message: 'accepted' },
    });
    expect((await tracker.get(txidOf(1)))?.stage).toBe('mempool');
    await handler.idle();
    expect(bitcoin).toHaveLength(1);
    expect(bitcoin[0]!.payload).toEqual(MEMPOOL_DELIVERY);
    expect(bitcoin[0]!.context).toMatchObject({
      stage: 'mempool',
      changes: [{ txid: txidOf(1), from: null, to: 'mempool' }],
    });

    // The service retries: 200 again, the callback runs, nothing changed.
    expect((await deliver(url, { ...MEMPOOL_DELIVERY, retries: 1 })).status).toBe(200);
    await handler.idle();
    expect(bitcoin[1]!.context.changes).toEqual([]);
    expect(await tracker.pendingDeliveries()).toEqual([]);
  });

  it('answers 200 before a slow callback finishes', async () => {
    let release!: () => void;
    const started = vi.fn();
    const { handler } = receiver({
      onBitcoin: () => {
        started();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    const url = await listen(handler.node);
    expect((await deliver(url, MEMPOOL_DELIVERY)).status).toBe(200);
    let idle = false;
    const waiting = handler.idle().then(() => {
      idle = true;
    });
    await vi.waitFor(() => expect(started).toHaveBeenCalledOnce());
    expect(idle).toBe(false);
    release();
    await waiting;
    expect(idle).toBe(true);
  });

  it('still answers 200 when a callback throws, reports it, and keeps the delivery for reprocessing', async () => {
    const tracker = createBitcoinTxTracker();
    const { handler, errors } = receiver({
      tracker,
      onBitcoin: () => {
        throw new Error('database is down');
      },
    });
    const url = await listen(handler.node);
    expect((await deliver(url, IN_BLOCK_DELIVERY)).status).toBe(200);
    await handler.idle();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.context).toMatchObject({ kind: 'bitcoin', phase: 'callback' });
    expect(String(errors[0]!.error)).toMatch(/database is down/);
    expect(await tracker.pendingDeliveries()).toMatchObject([
      { state: 'failed', error: 'Error: database is down', payload: IN_BLOCK_DELIVERY },
    ]);
    expect((await tracker.get(txidOf(1)))?.stage).toBe('in-block');
  });

  it('writes the delivery to SQLite before answering 200', async () => {
    const path = join(dir, 'durable.sqlite');
    const tracker = createBitcoinTxTracker({ store: createSqliteTxStore(path) });
    let release!: () => void;
    const { handler } = receiver({
      tracker,
      onBitcoin: () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    });
    const url = await listen(handler.node);
    expect((await deliver(url, CONFIRMED_DELIVERY)).status).toBe(200);
    // Another connection to the file, as a restarted process would open it, sees it all.
    const reader = createSqliteTxStore(path);
    expect(reader.get(txidOf(1))?.stage).toBe('confirmed');
    expect(reader.listDeliveries!()).toMatchObject([{ state: 'applied', payload: CONFIRMED_DELIVERY }]);
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    release();
    await handler.idle();
    expect(reader.listDeliveries!()).toEqual([]);
    reader.close();
  });

  it('answers 500 when the delivery cannot be recorded, so the service delivers it again', async () => {
    const tracker = createBitcoinTxTracker({
      store: {
        get: () => undefined,
        put: () => {
          throw new Error('disk full');
        },
      },
    });
    const { handler, bitcoin, errors } = receiver({ tracker });
    const url = await listen(handler.node);
    expect((await deliver(url, MEMPOOL_DELIVERY)).status).toBe(500);
    await handler.idle();
    expect(bitcoin).toEqual([]);
    expect(errors[0]!.context.phase).toBe('store');
  });

  it('answers 200 to a signed payload that does not parse, and reports it', async () => {
    const tracker = createBitcoinTxTracker();
    const { handler, bitcoin, errors } = receiver({ tracker });
    const url = await listen(handler.node);
    const broken = { ...MEMPOOL_DELIVERY, transactions: [{ vin: [] }] };
    expect((await deliver(url, broken)).status).toBe(200);
    expect((await deliver(url, { ...EVM_DELIVERY, confirmed: 'yes' })).status).toBe(200);
    await handler.idle();
    expect(bitcoin).toEqual([]);
    expect(errors.map((e) => [e.context.kind, e.context.phase, e.error instanceof ValidationError])).toEqual([
      ['bitcoin', 'payload', true],
      ['evm', 'payload', true],
    ]);
    expect(await tracker.pendingDeliveries()).toMatchObject([{ state: 'failed', payload: broken }]);
  });

  it('hands EVM deliveries to onEvm', async () => {
    const { handler, evm, bitcoin } = receiver();
    const url = await listen(handler.node);
    expect((await deliver(url, EVM_DELIVERY)).status).toBe(200);
    await handler.idle();
    expect(evm).toEqual([EVM_DELIVERY]);
    expect(bitcoin).toEqual([]);
  });

  it('verifies a 1.6 MB block delivery, and refuses bodies over maxBodyBytes with 413', async () => {
    const { handler, bitcoin } = receiver();
    const big = {
      ...CONFIRMED_DELIVERY,
      transactions: Array.from({ length: 1600 }, (_, i) => ({
        ...CONFIRMED_DELIVERY.transactions[1]!,
        txid: txidOf(i),
      })),
    };
    expect(JSON.stringify(big).length).toBeGreaterThan(1_600_000);
    const url = await listen(handler.node);
    expect((await deliver(url, big)).status).toBe(200);
    await handler.idle();
    expect(bitcoin[0]!.payload.transactions).toHaveLength(1600);

    const small = await listen(toNodeListener(handler, { maxBodyBytes: 10_000 }));
    expect((await deliver(small, big)).status).toBe(413);
  });

  it('reads a body of unknown length to the signed limit, and unsigned only to the unsigned one', async () => {
    const { handler, bitcoin } = receiver();
    const url = await listen(handler.node);
    const big = {
      ...CONFIRMED_DELIVERY,
      transactions: Array.from({ length: 100 }, (_, i) => ({
        ...CONFIRMED_DELIVERY.transactions[1]!,
        txid: txidOf(i),
      })),
    };
    const text = JSON.stringify(big);
    expect(text.length).toBeGreaterThan(4 * UNSIGNED_BODY_LIMIT);
    expect(await postInChunks(url, text, await signBody(text, SECRET))).toEqual({
      status: 200,
      body: { ok: true, message: 'accepted' },
    });
    expect(await postInChunks(url, text)).toEqual({
      status: 401,
      body: { ok: false, message: 'the x-signature header is missing' },
    });
    await handler.idle();
    expect(bitcoin.map(({ payload }) => payload.transactions.length)).toEqual([100]);

    // A maxBodyBytes under the unsigned limit caps signed bodies only: an unsigned one is still
    // read to tell a verification POST (200) from anything else (401, saying why).
    const small = await listen(toNodeListener(handler, { maxBodyBytes: 10_000 }));
    const padding = 'x'.repeat(12_000);
    const verification = JSON.stringify({ ...VERIFICATION_PAYLOAD, padding });
    const delivery = JSON.stringify({ ...MEMPOOL_DELIVERY, padding });
    expect((await postInChunks(small, verification)).status).toBe(200);
    expect((await postInChunks(small, delivery)).body.message).toBe('the x-signature header is missing');
    expect((await postInChunks(small, delivery, await signBody(delivery, SECRET))).status).toBe(413);
  });

  it('works behind Express-style body parsers: parsed JSON, raw Buffer or rawBody', async () => {
    const { handler, bitcoin } = receiver();
    const signature = await signBody(MEMPOOL_DELIVERY, SECRET);
    // What express.json(), express.raw() and a rawBody-keeping parser leave on req.
    const parsers = {
      json: (text: string) => ({ body: JSON.parse(text) }),
      raw: (text: string) => ({ body: Buffer.from(text) }),
      rawBody: (text: string) => ({ body: JSON.parse(text), rawBody: Buffer.from(text) }),
    };
    for (const [name, parse] of Object.entries(parsers)) {
      const url = await listen(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        Object.assign(req, parse(Buffer.concat(chunks).toString('utf8')));
        await handler.node(req, res);
      });
      const response = await post(url, JSON.stringify(MEMPOOL_DELIVERY), signature);
      expect(response.status, name).toBe(200);
      // The bytes as received are what is checked: re-indented on the way, they no longer match
      // (only a body the framework parsed, with nothing raw kept, is checked re-serialized).
      const reindented = await post(url, JSON.stringify(MEMPOOL_DELIVERY, null, 1), signature);
      expect(reindented.status, name).toBe(name === 'json' ? 200 : 401);
    }
    await handler.idle();
    expect(bitcoin).toHaveLength(4);
  });
});

describe('createWebhookHandler refuses before it parses', () => {
  /** Every JSON.parse of a text longer than `over` characters, while `work` runs. */
  async function largeParses(over: number, work: () => Promise<void>): Promise<number> {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      await work();
      return parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > over).length;
    } finally {
      parse.mockRestore();
    }
  }
  const bigJson = (bytes: number) => `[${'0,'.repeat(bytes / 2 - 1)}0]`;

  it('answers an unsigned 30 MB body 401 without reading it whole or parsing it', async () => {
    const { handler, bitcoin, errors } = receiver({ tracker: createBitcoinTxTracker() });
    let bytesRead = 0;
    const url = await listen((req, res) => {
      req.on('data', (chunk: Buffer) => {
        bytesRead += chunk.length;
      });
      void handler.node(req, res);
    });
    const body = bigJson(30 * 1024 * 1024);
    const parses = await largeParses(1024, async () => {
      expect(await post(url, body)).toEqual({
        status: 401,
        body: { ok: false, message: 'the x-signature header is missing' },
      });
      expect((await post(url, body, 'sha256=abc')).status).toBe(401);
    });
    expect(parses).toBe(0);
    // Discarded as it streams in, never held: far less than the body is kept.
    expect(bytesRead).toBeLessThanOrEqual(2 * body.length);
    await handler.idle();
    expect([bitcoin, errors]).toEqual([[], []]);
  });

  it('hashes a signed body before any JSON.parse: a wrong signature on 5 MB is never parsed', async () => {
    const { handler, bitcoin } = receiver();
    const url = await listen(handler.node);
    const body = bigJson(5 * 1024 * 1024);
    const wrong = await signBody('[0]', SECRET);
    const parses = await largeParses(1024, async () => {
      expect((await post(url, body, wrong)).status).toBe(401);
      expect(
        (await handler({ method: 'POST', headers: { 'x-signature': wrong }, rawBody: body })).status,
      ).toBe(401);
      expect((await handler({ method: 'POST', headers: {}, body })).status).toBe(401);
    });
    expect(parses).toBe(0);
    await handler.idle();
    expect(bitcoin).toEqual([]);
  });

  it('still answers a small unsigned verification POST 200, and a signed empty one', async () => {
    const { handler } = receiver();
    const verification = JSON.stringify(VERIFICATION_PAYLOAD);
    expect((await handler({ method: 'POST', headers: {}, rawBody: verification })).status).toBe(200);
    expect((await handler({ method: 'POST', headers: {}, body: VERIFICATION_PAYLOAD })).status).toBe(200);
    const signedEmpty = { 'x-signature': await signBody('{}', 'any') };
    expect((await handler({ method: 'POST', headers: signedEmpty, rawBody: '' })).status).toBe(200);
    expect((await handler({ method: 'POST', headers: {}, rawBody: 'x'.repeat(20_000) })).status).toBe(401);
  });
});

describe('createWebhookHandler without a server', () => {
  it('needs a secret', () => {
    expect(() => createWebhookHandler({ secret: '' })).toThrow(/secret: is needed/);
    expect(() => createWebhookHandler({} as WebhookHandlerOptions)).toThrow(ValidationError);
  });

  it('refuses a misspelled option, naming the one meant, instead of ignoring the callback', () => {
    const misspelled = { secret: 's', onBitcoinn: () => undefined } as unknown as WebhookHandlerOptions;
    expect(() => createWebhookHandler(misspelled)).toThrow(ValidationError);
    expect(() => createWebhookHandler(misspelled)).toThrow(
      'Invalid createWebhookHandler options: onBitcoinn: is not an option (did you mean "onBitcoin"?)',
    );
    const notCallable = { secret: 's', onEvm: 'log' } as unknown as WebhookHandlerOptions;
    expect(() => createWebhookHandler(notCallable)).toThrow(/onEvm: must be a function/);
    expect(() => createWebhookHandler(null as unknown as WebhookHandlerOptions)).toThrow(ValidationError);
    const { handler } = receiver();
    expect(() => toNodeListener(handler, { maxBodyByte: 10 } as never)).toThrow(
      /maxBodyByte: is not an option \(did you mean "maxBodyBytes"\?\)/,
    );
    expect(() => createBitcoinTxTracker({ stor: undefined } as never)).toThrow(/did you mean "store"/);
  });

  it('names resumeEveryMs when it is not a positive number', () => {
    for (const resumeEveryMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createWebhookHandler({ secret: 's', resumeEveryMs })).toThrow(
        /resumeEveryMs: must be a positive number/,
      );
    }
  });

  it('looks again for unfinished deliveries with resumeEveryMs: a failed callback runs again, until close()', async () => {
    const tracker = createBitcoinTxTracker();
    let calls = 0;
    const handler = createWebhookHandler({
      secret: SECRET,
      tracker,
      resumeEveryMs: 10,
      onError: () => undefined,
      onBitcoin: () => {
        calls++;
        if (calls < 3) throw new Error('mailer down');
      },
    });
    const rawBody = JSON.stringify(MEMPOOL_DELIVERY);
    await handler({ headers: { 'x-signature': await signBody(rawBody, SECRET) }, rawBody });
    await expect.poll(() => calls, { timeout: 5_000 }).toBe(3);
    await handler.close();
    expect(await tracker.pendingDeliveries()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(3);
  });

  it('takes fetch Headers or a plain header object in any case', async () => {
    const { handler, bitcoin } = receiver();
    const rawBody = JSON.stringify(MEMPOOL_DELIVERY);
    const signature = await signBody(rawBody, SECRET);
    expect(
      await handler({ method: 'POST', headers: new Headers({ 'X-Signature': signature }), rawBody }),
    ).toEqual({
      status: 200,
      body: { ok: true, message: 'accepted' },
    });
    expect((await handler({ headers: { 'X-SIGNATURE': [signature] }, body: MEMPOOL_DELIVERY })).status).toBe(
      200,
    );
    expect(
      (await handler({ headers: { 'x-signature': [signature, signature] }, body: MEMPOOL_DELIVERY })).status,
    ).toBe(401);
    expect((await handler({ headers: {} })).status).toBe(200);
    await handler.idle();
    expect(bitcoin).toHaveLength(2);
  });

  it('calls back nothing before it has answered', async () => {
    const { handler, bitcoin } = receiver();
    const response = await handler({
      headers: { 'x-signature': await signBody(MEMPOOL_DELIVERY, SECRET) },
      body: MEMPOOL_DELIVERY,
    });
    expect(response.status).toBe(200);
    expect(bitcoin).toEqual([]);
    await handler.idle();
    expect(bitcoin).toHaveLength(1);
  });

  it('answers 500 through its promise, never a throw, when reading the request itself throws', async () => {
    const errors: WebhookErrorContext[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onError: (_, context) => void errors.push(context),
    });
    const headers = {
      get 'x-signature'(): string {
        throw new Error('a header getter that throws');
      },
    };
    let answered: ReturnType<typeof handler> | undefined;
    expect(() => {
      answered = handler({ method: 'POST', headers, rawBody: '{}' });
    }).not.toThrow();
    expect(await answered).toEqual({ status: 500, body: { ok: false, message: 'the receiver failed' } });
    await handler.idle();
    expect(errors.map(({ kind, phase }) => ({ kind, phase }))).toEqual([
      { kind: 'unknown', phase: 'receive' },
    ]);
  });
});

describe('a handler started over deliveries a crash left unfinished', () => {
  /** A store as a killed receiver leaves it: deliveries accepted (answered 200), callbacks never run. */
  async function crashedStore() {
    const store = createSqliteTxStore(join(dir, `crashed-${Math.random().toString(36).slice(2)}.sqlite`));
    const crashed = createBitcoinTxTracker({ store });
    await crashed.accept(bitcoinDelivery('mempool', [txidOf(1), txidOf(2)]));
    await crashed.accept(bitcoinDelivery('confirmed', [txidOf(1)]));
    return store;
  }

  it('runs their callbacks on its own, with their changes, before a newer delivery, and settles them', async () => {
    const store = await crashedStore();
    const { handler, bitcoin } = receiver({ tracker: createBitcoinTxTracker({ store }) });
    // A new delivery arrives at once: its callback still comes after the resumed ones.
    const body = JSON.stringify(bitcoinDelivery('in-block', [txidOf(2)]));
    expect(
      (await handler({ headers: { 'x-signature': await signBody(body, SECRET) }, rawBody: body })).status,
    ).toBe(200);
    await handler.idle();
    expect(
      bitcoin.map(({ context }) => context.changes!.map((ch) => `${ch.txid.slice(-1)}:${ch.from}>${ch.to}`)),
    ).toEqual([['1:null>mempool', '2:null>mempool'], ['1:mempool>confirmed'], ['2:mempool>in-block']]);
    expect(store.listDeliveries()).toEqual([]);
    store.close();
  });

  it('keeps a resumed delivery whose callback fails again, as failed', async () => {
    const store = await crashedStore();
    const { handler, errors } = receiver({
      tracker: createBitcoinTxTracker({ store }),
      onBitcoin: (_payload, { stage }) => {
        if (stage === 'confirmed') throw new Error('still down');
      },
    });
    await handler.idle();
    expect(errors.map((e) => e.context.phase)).toEqual(['callback']);
    expect(store.listDeliveries()).toMatchObject([{ state: 'failed', error: 'Error: still down' }]);
    store.close();
  });

  it('leaves them alone with resumePending: false (another process on the same store resumes them)', async () => {
    const store = await crashedStore();
    const { handler, bitcoin } = receiver({
      tracker: createBitcoinTxTracker({ store }),
      resumePending: false,
    });
    await handler.idle();
    expect(bitcoin).toEqual([]);
    expect(store.listDeliveries()).toHaveLength(2);
    store.close();
  });
});

describe('hooks that fail', () => {
  const failingHooks: [string, WebhookHandlerOptions['onError']][] = [
    [
      'an async onError that rejects',
      async () => {
        throw new Error('error hook down');
      },
    ],
    [
      'a sync onError that throws',
      () => {
        throw new Error('error hook down');
      },
    ],
  ];

  it.each(failingHooks)(
    '%s never leaves a rejection unhandled, and the error still shows',
    async (_name, onError) => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const { handler } = receiver({
          tracker: createBitcoinTxTracker(),
          onBitcoin: async () => {
            throw new Error('callback down');
          },
          onEvm: async () => {
            throw new Error('callback down');
          },
          onError,
        });
        const url = await listen(handler.node);
        expect((await deliver(url, MEMPOOL_DELIVERY)).status).toBe(200);
        expect((await deliver(url, EVM_DELIVERY)).status).toBe(200);
        expect((await deliver(url, { ...MEMPOOL_DELIVERY, transactions: [{ vin: [] }] })).status).toBe(200);
        await handler.idle();
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(rejections).toEqual([]);
        // Not silent: each failure the hook could not take is logged with the hook's own error.
        const logged = consoleError.mock.calls.map((call) => call.map(String).join(' '));
        expect(logged).toHaveLength(3);
        for (const line of logged) expect(line).toMatch(/onError failed.*error hook down/);
      } finally {
        process.off('unhandledRejection', onRejection);
        consoleError.mockRestore();
      }
    },
  );

  it('waits in idle() for an async onError to finish', async () => {
    let finished = false;
    const { handler } = receiver({
      onEvm: () => {
        throw new Error('callback down');
      },
      onError: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        finished = true;
      },
    });
    const body = JSON.stringify(EVM_DELIVERY);
    await handler({ headers: { 'x-signature': await signBody(body, SECRET) }, rawBody: body });
    await handler.idle();
    expect(finished).toBe(true);
  });

  it('keeps a Node process alive when an async onError rejects (the built package, in its own process)', async () => {
    const dist = join(import.meta.dirname, '..', '..', 'dist', 'webhooks.cjs');
    const script = `
      const kit = require(${JSON.stringify(dist)});
      const handler = kit.createWebhookHandler({
        secret: 's',
        onEvm: async () => { throw new Error('callback down'); },
        onError: async () => { throw new Error('error hook down'); },
      });
      (async () => {
        const body = JSON.stringify({ confirmed: true, chainId: '0x1', streamId: 's-1', logs: [] });
        const answer = await handler({ headers: { 'x-signature': await kit.signBody(body, 's') }, rawBody: body });
        await handler.idle();
        setTimeout(() => process.stdout.write('alive ' + answer.status), 50);
      })();`;
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(out).toBe('alive 200');
  });

  it('never rejects from the node listener, even when the response cannot be written', async () => {
    const { handler } = receiver();
    const req = Object.assign(new (await import('node:stream')).PassThrough(), {
      method: 'POST',
      headers: {},
      body: { hello: 'x' },
    });
    const res = {
      setHeader() {
        throw new Error('headers already sent');
      },
      end() {
        throw new Error('socket gone');
      },
      destroy: vi.fn(),
      statusCode: 0,
    };
    await expect(handler.node(req as never, res as never)).resolves.toBeUndefined();
  });
});

describe('a simulated stream run over HTTP', () => {
  it('ends every transaction in the tracker with each of its stages reported exactly once', async () => {
    const tracker = createBitcoinTxTracker({ store: createSqliteTxStore(join(dir, 'run.sqlite')) });
    const { handler, bitcoin, errors } = receiver({ tracker });
    const url = await listen(handler.node);

    // 40 transactions; some skip the mempool, some never leave it; blocks batch several txids.
    const plans = Array.from({ length: 40 }, (_, i) => {
      const stages: BitcoinDeliveryStage[] = ['mempool', 'in-block', 'confirmed'];
      if (i % 5 === 0) stages.shift();
      if (i % 7 === 3) stages.splice(1);
      return { txid: txidOf(1000 + i), stages };
    });
    const deliveries: unknown[] = [];
    for (let round = 0; round < 3; round++) {
      for (let start = 0; start < plans.length; start += 6) {
        const group = plans.slice(start, start + 6).filter((p) => p.stages[round]);
        for (const stage of ['mempool', 'in-block', 'confirmed'] as const) {
          const txids = group.filter((p) => p.stages[round] === stage).map((p) => p.txid);
          if (txids.length === 0) continue;
          deliveries.push(bitcoinDelivery(stage, txids));
          if ((start + round) % 3 === 0) deliveries.push({ ...bitcoinDelivery(stage, txids), retries: 1 });
        }
      }
    }
    for (const delivery of deliveries) expect((await deliver(url, delivery)).status).toBe(200);
    await handler.idle();

    expect(errors).toEqual([]);
    expect(bitcoin).toHaveLength(deliveries.length);
    const reported = new Map<string, BitcoinDeliveryStage[]>();
    for (const { context } of bitcoin) {
      for (const change of context.changes ?? [])
        reported.set(change.txid, [...(reported.get(change.txid) ?? []), change.to]);
    }
    for (const plan of plans) {
      expect(reported.get(plan.txid), plan.txid).toEqual(plan.stages);
      expect((await tracker.get(plan.txid))?.stage).toBe(plan.stages.at(-1));
    }
    expect(await tracker.pendingDeliveries()).toEqual([]);
  });
});
