/**
 * What a client tells an operator of its calls, against the emulator with faults: the
 * `blockwire:call` tracing channel, the `onCallEnd` hook, headers added by `addHeaders`.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import {
  ApiError,
  CALL_CHANNEL,
  type CallEndInfo,
  type CallMessage,
  type ClientHooks,
  createClient,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
} from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, useEmulator } from './test-support.js';

const t = useEmulator();
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
type EventName = (typeof EVENTS)[number];

/** Every event of the channel while a test runs, with the message it carried. */
let seen: { event: EventName; message: CallMessage }[] = [];
const channel = tracingChannel<CallMessage>(CALL_CHANNEL);
const record = (event: EventName) => (message: CallMessage) => {
  seen.push({ event, message });
};
const subscriber = {
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
};

beforeEach(() => {
  seen = [];
  channel.subscribe(subscriber);
});
afterEach(async () => {
  channel.unsubscribe(subscriber);
  await call(`${t.emu.control}/faults`, { method: 'DELETE' });
});

function clientWith(options: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({ apiKey: t.emu.apiKey, baseUrls: t.emu.urls, retry: false, ...options });
}

async function settled(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => value,
    (error: unknown) => error,
  );
}

/** The events of the one call the test made: exactly one of each, an `error` only on failure. */
function oneCall(failed: boolean): CallMessage {
  const messages = new Set(seen.map((s) => s.message));
  expect(messages.size).toBe(1);
  const counts = Object.fromEntries(EVENTS.map((e) => [e, seen.filter((s) => s.event === e).length]));
  expect(counts).toEqual({ start: 1, end: 1, asyncStart: 1, asyncEnd: 1, error: failed ? 1 : 0 });
  expect(seen.at(-1)?.event).toBe('asyncEnd');
  const [message] = messages as Set<CallMessage>;
  expect(JSON.stringify({ ...message, result: undefined, error: undefined })).not.toContain(t.emu.apiKey);
  return message!;
}

async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A server on 127.0.0.1 that answers every request 200 with `body`. */
async function answering(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the blockwire:call channel: one end per call', () => {
  it('a success: the operation, interface, status, one attempt and its duration', async () => {
    const client = clientWith();
    try {
      await getEvmTokenPrice(client, { address: WETH });
      const message = oneCall(false);
      expect(message).toMatchObject({
        operation: 'getEvmTokenPrice',
        api: 'evm',
        interface: 'rest',
        method: 'GET',
        attempts: 1,
        status: 200,
        errorType: undefined,
        outcomeUnknown: false,
        retryDelaysMs: [],
        rateLimitWaitsMs: [],
      });
      expect(message.durationMs).toBeGreaterThan(0);
      expect(message.attemptLog).toEqual([
        expect.objectContaining({ attempt: 1, status: 200, errorType: undefined, retryDelayMs: undefined }),
      ]);
      expect(message.result).toMatchObject({
        tokenAddress: expect.any(String),
        usdPrice: expect.any(Number),
      });
    } finally {
      await client.close();
    }
  });

  it('an HTTP error: its status and error class', async () => {
    const client = clientWith();
    try {
      const error = await settled(getEvmTokenPrice(client, { address: WETH, minPairSideLiquidityUsd: 1e12 }));
      expect(error).toBeInstanceOf(NotFoundError);
      const message = oneCall(true);
      expect(message).toMatchObject({ attempts: 1, status: 404, errorType: 'NotFoundError' });
      expect(message.error).toBe(error);
    } finally {
      await client.close();
    }
  });

  it('a timeout: no status, TimeoutError', async () => {
    await call(`${t.emu.control}/faults`, { method: 'POST', body: { interface: 'evm', latencyMs: 1_000 } });
    const client = clientWith({ timeoutMs: 100 });
    try {
      expect(await settled(getEvmTokenPrice(client, { address: WETH }))).toBeInstanceOf(TimeoutError);
      const message = oneCall(true);
      expect(message).toMatchObject({ attempts: 1, status: undefined, errorType: 'TimeoutError' });
      expect(message.attemptLog[0]).toMatchObject({ status: undefined, errorType: 'TimeoutError' });
      expect(message.durationMs).toBeGreaterThanOrEqual(90);
    } finally {
      await client.close();
    }
  });

  it('a connection refused, not retried: one end all the same', async () => {
    const url = await refusedUrl();
    const client = createClient({
      apiKey: t.emu.apiKey,
      baseUrls: { ...t.emu.urls, evm: `${url}/api/v2.2` },
      retry: false,
    });
    try {
      expect(await settled(getEvmTokenPrice(client, { address: WETH }))).toBeInstanceOf(NetworkError);
      expect(oneCall(true)).toMatchObject({ attempts: 1, status: undefined, errorType: 'NetworkError' });
    } finally {
      await client.close();
    }
  });

  it('an answer that breaks the contract: the call ends failed, with its status and the check that refused it', async () => {
    const server = await answering('{"usdPrice":"not a number"}');
    const client = createClient({
      apiKey: t.emu.apiKey,
      baseUrls: { ...t.emu.urls, evm: `${server.url}/api/v2.2` },
      retry: false,
    });
    try {
      const error = await settled(getEvmTokenPrice(client, { address: WETH }));
      expect(error).toBeInstanceOf(ResponseValidationError);
      const message = oneCall(true);
      expect(message).toMatchObject({ attempts: 1, status: 200, errorType: 'ResponseValidationError' });
      expect(message.error).toBe(error);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a 429 retried: every attempt, the wait, and the rate-limit wait counted', async () => {
    await call(`${t.emu.control}/faults`, {
      method: 'POST',
      body: { interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0 },
    });
    const client = clientWith({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });
    try {
      expect(await settled(getEvmTokenPrice(client, { address: WETH }))).toBeInstanceOf(RateLimitError);
      const message = oneCall(true);
      expect(message).toMatchObject({ attempts: 3, status: 429, errorType: 'RateLimitError' });
      expect(message.retryDelaysMs).toHaveLength(2);
      expect(message.rateLimitWaitsMs).toEqual(message.retryDelaysMs);
      expect(message.attemptLog.map((a) => [a.attempt, a.status, a.errorType])).toEqual([
        [1, 429, 'RateLimitError'],
        [2, 429, 'RateLimitError'],
        [3, 429, 'RateLimitError'],
      ]);
    } finally {
      await client.close();
    }
  });

  it('a 429 then an answer: a success after two attempts, the Retry-After waited out', async () => {
    await call(`${t.emu.control}/faults`, {
      method: 'POST',
      body: { interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0.3 },
    });
    // The faults are lifted while the client waits out the Retry-After.
    const lifted: Promise<unknown>[] = [];
    const client = clientWith({
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1_000 },
      hooks: { onRetry: () => lifted.push(call(`${t.emu.control}/faults`, { method: 'DELETE' })) },
    });
    try {
      await getEvmTokenPrice(client, { address: WETH });
      await Promise.all(lifted);
      const message = oneCall(false);
      expect(message).toMatchObject({ attempts: 2, status: 200, errorType: undefined });
      expect(message.rateLimitWaitsMs).toEqual([expect.any(Number)]);
      expect(message.rateLimitWaitsMs[0]).toBeGreaterThanOrEqual(300);
      expect(message.attemptLog.map((a) => a.status)).toEqual([429, 200]);
    } finally {
      await client.close();
    }
  });
});

describe('onCallEnd', () => {
  it('fires once per call, for a refused connection too, with no subscriber on the channel', async () => {
    channel.unsubscribe(subscriber);
    const ends: CallEndInfo[] = [];
    const url = await refusedUrl();
    const client = createClient({
      apiKey: t.emu.apiKey,
      baseUrls: { ...t.emu.urls, evm: `${url}/api/v2.2` },
      retry: false,
      hooks: { onCallEnd: (info) => ends.push(info) },
    });
    try {
      const error = await settled(getEvmTokenPrice(client, { address: WETH }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatchObject({ attempts: 1, errorType: 'NetworkError', status: undefined });
      expect(ends[0]!.error).toBe(error);
      expect(seen).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('an ApiError: the status and the class, and the same call id as the attempts’ hooks', async () => {
    const ends: CallEndInfo[] = [];
    const requests: (number | undefined)[] = [];
    const client = clientWith({
      hooks: { onCallEnd: (info) => ends.push(info), onRequest: (info) => requests.push(info.callId) },
    });
    try {
      const error = await settled(getEvmTokenPrice(client, { address: WETH, minPairSideLiquidityUsd: 1e12 }));
      expect(error).toBeInstanceOf(ApiError);
      expect(ends).toEqual([
        expect.objectContaining({ status: 404, errorType: 'NotFoundError', attempts: 1 }),
      ]);
      expect(requests).toEqual([ends[0]!.callId]);
      expect(oneCall(true).callId).toBe(ends[0]!.callId);
    } finally {
      await client.close();
    }
  });

  it('an answer that breaks the contract ends the call as failed there too', async () => {
    channel.unsubscribe(subscriber);
    const server = await answering('{"usdPrice":"not a number"}');
    const ends: CallEndInfo[] = [];
    const client = createClient({
      apiKey: t.emu.apiKey,
      baseUrls: { ...t.emu.urls, evm: `${server.url}/api/v2.2` },
      retry: false,
      hooks: { onCallEnd: (info) => ends.push(info) },
    });
    try {
      const error = await settled(getEvmTokenPrice(client, { address: WETH }));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(ends).toEqual([
        expect.objectContaining({ status: 200, errorType: 'ResponseValidationError', error }),
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('addHeaders', () => {
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('a traceparent added by the hook reaches the service, on every attempt', async () => {
    await call(`${t.emu.control}/requests`, { method: 'DELETE' });
    await call(`${t.emu.control}/faults`, {
      method: 'POST',
      body: { interface: 'evm', rate: 1, statuses: [503], retryAfterSeconds: 0 },
    });
    const attempts: number[] = [];
    const client = clientWith({
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      hooks: {
        addHeaders: (info) => {
          attempts.push(info.attempt);
          return { traceparent };
        },
      },
    });
    try {
      await settled(getEvmTokenPrice(client, { address: WETH }));
      const { body } = await call(`${t.emu.control}/requests?interface=evm`);
      const logged = body.requests as { traceparent?: string }[];
      expect(logged.map((r) => r.traceparent)).toEqual([traceparent, traceparent]);
      expect(attempts).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['the key header', { 'x-api-key': 'another-key' }],
    ['the host', { Host: 'elsewhere.example' }],
    ['a header the request has', { Accept: 'text/html' }],
    ['a header with a line break', { 'x-note': 'a\r\nx-api-key: stolen' }],
  ])('refuses %s with a ValidationError, and nothing is sent', async (_what, headers) => {
    await call(`${t.emu.control}/requests`, { method: 'DELETE' });
    const hooks: ClientHooks = { addHeaders: () => headers };
    const client = clientWith({ hooks });
    try {
      const error = await settled(getEvmTokenPrice(client, { address: WETH }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toContain('hooks.addHeaders');
      const { body } = await call(`${t.emu.control}/requests?interface=evm`);
      expect(body.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a hook that throws is ignored, like any hook', async () => {
    const client = clientWith({
      hooks: {
        addHeaders: () => {
          throw new Error('broken hook');
        },
      },
    });
    try {
      await expect(getEvmTokenPrice(client, { address: WETH })).resolves.toBeDefined();
    } finally {
      await client.close();
    }
  });
});
