/**
 * One table of requests, each with the status it must get, run through both entry points: the
 * Node listener over real HTTP and the Fetch-style handler in process. The streams README's
 * "Status codes" section is this table.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keccak } from 'hash-wasm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVM_DELIVERY, MEMPOOL_DELIVERY, txidOf, VERIFICATION_PAYLOAD } from './__fixtures__/bitcoin.js';
import {
  createWebhookHandler,
  toFetchHandler,
  toNodeListener,
  UNSIGNED_BODY_LIMIT,
  type WebhookErrorContext,
  type WebhookHandler,
} from './handler.js';
import { createMemoryTxStore } from './store.js';
import { createBitcoinTxTracker } from './tracker.js';
import { type DeliveryEvent, WEBHOOK_CHANNELS } from './webhook-events.js';

/** Flipped on by a case to make the hashing back-end throw, as a broken one would. */
const fault = vi.hoisted(() => ({ keccak: false, store: false }));
vi.mock('./keccak.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./keccak.js')>();
  return {
    ...real,
    keccak256: (body: string | Uint8Array, secret: Uint8Array) => {
      if (fault.keccak) throw new Error('simulated: the keccak back-end broke');
      return real.keccak256(body, secret);
    },
  };
});

const SECRET = 'whsec_5e1a77c2';
const CAP = 64 * 1024;

/** A signature of the text exactly as it is (signBody parses first, so it takes JSON only). */
const signRaw = async (text: string) => `0x${await keccak(text + SECRET, 256)}`;

/** An EVM delivery whose JSON is exactly `bytes` long (ASCII: as many bytes as characters). */
function evmOfLength(bytes: number): string {
  const bare = JSON.stringify({ ...EVM_DELIVERY, tag: '' });
  return JSON.stringify({ ...EVM_DELIVERY, tag: 'x'.repeat(bytes - bare.length) });
}

interface Case {
  name: string;
  body: string;
  /** The x-signature header: the body's own signature, none, or this text. */
  signature: 'valid' | 'none' | string;
  method?: string;
  /** Header name to send it under (any case must do). */
  header?: string;
  setUp?: () => void;
  status: number;
  message: string | RegExp;
  /** The delivery event published for it (`WEBHOOK_CHANNELS.delivery`), status aside. */
  event: Omit<DeliveryEvent, 'status'>;
  /** What onError must have been told, if anything. */
  reported?: Pick<WebhookErrorContext, 'kind' | 'phase'>;
}

const bitcoin = JSON.stringify(MEMPOOL_DELIVERY);
const evm = JSON.stringify(EVM_DELIVERY);

const CASES: Case[] = [
  {
    name: 'a signed EVM delivery',
    body: evm,
    signature: 'valid',
    status: 200,
    event: { outcome: 'accepted', kind: 'evm', streamId: EVM_DELIVERY.streamId },
    message: 'accepted',
  },
  {
    name: 'a signed Bitcoin delivery',
    body: bitcoin,
    signature: 'valid',
    status: 200,
    event: {
      outcome: 'accepted',
      kind: 'bitcoin',
      streamId: MEMPOOL_DELIVERY.streamId,
      stage: 'mempool',
      duplicate: false,
    },
    message: 'accepted',
  },
  {
    name: 'the header in upper case',
    body: evm,
    signature: 'valid',
    header: 'X-SIGNATURE',
    status: 200,
    event: { outcome: 'accepted', kind: 'evm', streamId: EVM_DELIVERY.streamId },
    message: 'accepted',
  },
  {
    name: 'an empty body with a JSON content type, unsigned (the verification POST)',
    body: '',
    signature: 'none',
    status: 200,
    event: { outcome: 'verification' },
    message: 'verification request',
  },
  {
    name: 'the verification payload, unsigned',
    body: JSON.stringify(VERIFICATION_PAYLOAD),
    signature: 'none',
    status: 200,
    event: { outcome: 'verification' },
    message: 'verification request',
  },
  {
    name: 'no signature header',
    body: evm,
    signature: 'none',
    status: 401,
    event: { outcome: 'refused', reason: 'missing-signature' },
    message: 'the x-signature header is missing',
  },
  {
    name: 'a malformed signature',
    body: evm,
    signature: 'sha256=abc',
    status: 401,
    event: { outcome: 'refused', reason: 'malformed-signature' },
    message: 'the x-signature is malformed',
  },
  {
    name: 'a wrong signature',
    body: evm,
    signature: `0x${'ab'.repeat(32)}`,
    status: 401,
    event: { outcome: 'refused', reason: 'bad-signature' },
    message: 'the x-signature does not match',
  },
  {
    name: 'an unsigned body past the unsigned limit (refused unread)',
    body: `[${'0,'.repeat(UNSIGNED_BODY_LIMIT)}0]`,
    signature: 'none',
    status: 401,
    event: { outcome: 'refused', reason: 'missing-signature' },
    message: 'the x-signature header is missing',
  },
  {
    name: 'a signed body that is not JSON',
    body: '{"streamId":',
    signature: 'valid',
    status: 400,
    event: { outcome: 'refused', reason: 'not-json' },
    message: 'the body is not valid JSON',
  },
  {
    name: 'a signed JSON body with a lone surrogate (escaped, as JSON.stringify writes it)',
    body: JSON.stringify({ ...EVM_DELIVERY, tag: '\ud800' }),
    signature: 'valid',
    status: 200,
    event: { outcome: 'accepted', kind: 'evm', streamId: EVM_DELIVERY.streamId },
    message: 'accepted',
  },
  {
    name: 'a signed payload the contract refuses',
    body: JSON.stringify({ ...MEMPOOL_DELIVERY, transactions: 'none' }),
    signature: 'valid',
    status: 200,
    event: { outcome: 'unreadable', reason: 'invalid-payload', kind: 'bitcoin' },
    message: 'accepted, but the payload did not parse; reported',
    reported: { kind: 'bitcoin', phase: 'payload' },
  },
  {
    name: 'a signed body of exactly the cap',
    body: evmOfLength(CAP),
    signature: 'valid',
    status: 200,
    event: { outcome: 'accepted', kind: 'evm', streamId: EVM_DELIVERY.streamId },
    message: 'accepted',
  },
  {
    name: 'a signed body one byte past the cap',
    body: evmOfLength(CAP + 1),
    signature: 'valid',
    status: 413,
    event: { outcome: 'refused', reason: 'too-large' },
    message: `the body is larger than ${CAP} bytes`,
  },
  {
    name: 'a hashing back-end that throws',
    body: evm,
    signature: 'valid',
    setUp: () => {
      fault.keccak = true;
    },
    status: 500,
    event: { outcome: 'failed', reason: 'receiver-failed' },
    message: 'could not verify the signature here',
    reported: { kind: 'unknown', phase: 'receive' },
  },
  {
    name: 'a store that cannot write the delivery',
    body: bitcoin,
    signature: 'valid',
    setUp: () => {
      fault.store = true;
    },
    status: 500,
    event: { outcome: 'failed', reason: 'store-failed', kind: 'bitcoin' },
    message: 'could not record the delivery',
    reported: { kind: 'bitcoin', phase: 'store' },
  },
  {
    name: 'a GET',
    body: '',
    signature: 'none',
    method: 'GET',
    status: 405,
    event: { outcome: 'refused', reason: 'wrong-method' },
    message: /POST/,
  },
];

/** A receiver with a tracker over a store that fails on demand, and what it was told. */
function receiver() {
  const store = createMemoryTxStore();
  // Every write fails while `fault.store` is on.
  for (const name of ['put', 'advance', 'saveDelivery'] as const) {
    const write = store[name] as ((...args: unknown[]) => unknown) | undefined;
    if (!write) continue;
    (store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (fault.store) throw new Error('simulated: disk full');
      return write.apply(store, args);
    };
  }
  const calls = { bitcoin: 0, evm: 0, changes: 0 };
  const errors: Pick<WebhookErrorContext, 'kind' | 'phase'>[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    tracker: createBitcoinTxTracker({ store }),
    onBitcoin: (_, { changes }) => {
      calls.bitcoin++;
      calls.changes += changes?.length ?? 0;
    },
    onEvm: () => {
      calls.evm++;
    },
    onError: (_, { kind, phase }) => {
      errors.push({ kind, phase });
    },
  });
  return { handler, store, calls, errors };
}

interface Sent {
  body: string;
  headers: Record<string, string>;
  method: string;
}

type Send = (handler: WebhookHandler, sent: Sent) => Promise<{ status: number; body: unknown }>;

const servers: Server[] = [];
afterEach(async () => {
  fault.keccak = false;
  fault.store = false;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
}

const ENTRY_POINTS: [string, Send][] = [
  [
    'the Node listener, over HTTP',
    async (handler, { body, headers, method }) => {
      const url = await listen(toNodeListener(handler, { maxBodyBytes: CAP }));
      const response = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body }) });
      return { status: response.status, body: await response.json() };
    },
  ],
  [
    'the Fetch-style handler',
    async (handler, { body, headers, method }) => {
      const fetchHandler = toFetchHandler(handler, { maxBodyBytes: CAP });
      const init: RequestInit = { method, headers, ...(method === 'GET' ? {} : { body }) };
      const response = await fetchHandler(new Request('http://127.0.0.1/webhook', init));
      return { status: response.status, body: await response.json() };
    },
  ],
];

describe.each(ENTRY_POINTS)('%s', (_, send) => {
  it.each(CASES)('$name: $status', async (k) => {
    const { handler, store, calls, errors } = receiver();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (k.signature !== 'none')
      headers[k.header ?? 'x-signature'] = k.signature === 'valid' ? await signRaw(k.body) : k.signature;
    k.setUp?.();
    const sent = { body: k.body, headers, method: k.method ?? 'POST' };
    const published: unknown[] = [];
    const listen = (message: unknown) => published.push(message);
    subscribe(WEBHOOK_CHANNELS.delivery, listen);
    const answer = await send(handler, sent).finally(() => unsubscribe(WEBHOOK_CHANNELS.delivery, listen));
    expect(answer.status).toBe(k.status);
    expect(published).toEqual([{ status: k.status, ...k.event }]);
    const { message } = answer.body as { ok: boolean; message: string };
    if (typeof k.message === 'string') expect(message).toBe(k.message);
    else expect(message).toMatch(k.message);
    expect((answer.body as { ok: boolean }).ok).toBe(k.status === 200);
    await handler.idle();
    expect(errors).toEqual(k.reported ? [k.reported] : []);

    const isBitcoin = k.body === bitcoin;
    const taken = k.status === 200 && k.message === 'accepted';
    expect(calls).toEqual({
      bitcoin: taken && isBitcoin ? 1 : 0,
      evm: taken && !isBitcoin ? 1 : 0,
      changes: taken && isBitcoin ? 1 : 0,
    });
    if (isBitcoin) expect((await store.get(txidOf(1)))?.stage).toBe(taken ? 'mempool' : undefined);

    // Nothing lost, nothing twice: a delivery refused for a fault here is taken when the service
    // delivers it again, and a Bitcoin delivery delivered twice moves its transaction once.
    fault.keccak = false;
    fault.store = false;
    if (k.status >= 500 || taken) {
      for (const _again of [1, 2]) expect((await send(handler, sent)).status).toBe(200);
      await handler.idle();
      if (isBitcoin) {
        expect(calls.changes).toBe(1);
        expect((await store.get(txidOf(1)))?.stage).toBe('mempool');
      } else expect(calls.evm).toBe(taken ? 3 : 2);
    }
  });
});

describe('a body that never ends', () => {
  /** A stream of 16 KB chunks of JSON-ish text, for ever, counting what was pulled. */
  function endless() {
    const pulled = { bytes: 0 };
    const chunk = new TextEncoder().encode(`[${'0,'.repeat(8 * 1024)}`);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return { stream, pulled };
  }

  it.each([
    ['signed', 413],
    ['unsigned', 401],
  ] as const)(
    '%s, to the Fetch-style handler: answered %i once the limit is passed, read no further',
    async (kind, status) => {
      const { handler } = receiver();
      const { stream, pulled } = endless();
      const headers: Record<string, string> =
        kind === 'signed' ? { 'x-signature': await signRaw('[0]') } : {};
      const response = await toFetchHandler(handler, { maxBodyBytes: CAP })(
        new Request('http://127.0.0.1/webhook', {
          method: 'POST',
          headers,
          body: stream,
          duplex: 'half',
        } as RequestInit),
      );
      expect(response.status).toBe(status);
      const limit = kind === 'signed' ? CAP : UNSIGNED_BODY_LIMIT;
      expect(pulled.bytes).toBeLessThan(limit + 4 * 16 * 1024);
    },
  );

  it.each([
    ['signed', 413],
    ['unsigned', 401],
  ] as const)(
    '%s, to the Node listener: answered %i while the client is still sending, then dropped',
    async (kind, status) => {
      const { handler } = receiver();
      const url = await listen(toNodeListener(handler, { maxBodyBytes: CAP }));
      const headers: Record<string, string> =
        kind === 'signed' ? { 'x-signature': await signRaw('[0]') } : {};
      const sent = request(url, { method: 'POST', headers });
      sent.on('error', () => undefined); // the server drops the connection in the end
      const chunk = Buffer.from(`[${'0,'.repeat(8 * 1024)}`);
      let writing = true;
      const write = () => {
        while (writing && sent.write(chunk));
        if (writing) sent.once('drain', write);
      };
      write();
      const [response] = (await once(sent, 'response')) as [IncomingMessage];
      expect(response.statusCode).toBe(status);
      const chunks: Buffer[] = [];
      for await (const piece of response) chunks.push(piece as Buffer);
      expect(JSON.parse(Buffer.concat(chunks).toString('utf8')).ok).toBe(false);
      // The server ends the exchange, however long the client would go on.
      await new Promise<void>((resolve) => {
        if (sent.destroyed) return resolve();
        sent.once('close', () => resolve());
      });
      writing = false;
    },
    60_000,
  );
});
