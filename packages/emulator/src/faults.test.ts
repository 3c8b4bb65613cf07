import { createClient, NetworkError, RateLimitError, ServerError, TimeoutError } from '@blockwire/core';
import { getEntity } from '@blockwire/entities';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFaults } from './faults.js';
import type { Emulator } from './server.js';
import { call, emulator } from './test-support.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());
afterEach(async () => {
  await call(`${emu.control}/faults`, { method: 'DELETE' });
  await call(`${emu.control}/requests`, { method: 'DELETE' });
});

const requestsServed = async (iface = 'evm') =>
  (await call(`${emu.control}/requests?interface=${iface}`)).body.requests as {
    status: number;
    fault?: string;
  }[];

function sdk(retry: { maxAttempts: number }, timeoutMs = 5_000) {
  return createClient({
    apiKey: emu.apiKey,
    baseUrls: emu.urls,
    timeoutMs,
    retry: { ...retry, baseDelayMs: 1, maxDelayMs: 1_000 },
  });
}

const setFaults = (body: Record<string, unknown>) => call(`${emu.control}/faults`, { method: 'POST', body });

describe('fault injection driving the SDK', () => {
  it('429 with Retry-After: the SDK retries until it gives up, every attempt served', async () => {
    await setFaults({ interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0 });
    const client = sdk({ maxAttempts: 4 });
    const error = await getEntity(client, { entityId: 'binance' }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(RateLimitError);
    const served = await requestsServed();
    expect(served).toHaveLength(4);
    expect(served.every((r) => r.status === 429 && r.fault === 'status')).toBe(true);
  });

  it('sends Retry-After with a 429', async () => {
    await setFaults({ interface: 'streams', rate: 1, statuses: [429], retryAfterSeconds: 7 });
    const response = await call(`${emu.urls.streams}/streams/bitcoin`, { key: emu.apiKey });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.body.message).toMatch(/retry after 7/);
  });

  it('a share of 5xx: the SDK retries through them and succeeds; the log holds every attempt', async () => {
    await setFaults({ interface: 'evm', rate: 0.5, statuses: [500, 502, 503], retryAfterSeconds: 0 });
    let attempts = 0;
    const client = createClient({
      apiKey: emu.apiKey,
      baseUrls: emu.urls,
      retry: { maxAttempts: 20, baseDelayMs: 1, maxDelayMs: 5 },
      hooks: { onResponse: () => attempts++ },
    });
    for (let i = 0; i < 10; i++) {
      expect((await getEntity(client, { entityId: 'coinbase' })).id).toBe('coinbase');
    }
    await client.close();
    const served = await requestsServed();
    expect(served).toHaveLength(attempts);
    expect(served.filter((r) => r.status === 200)).toHaveLength(10);
    const failed = served.filter((r) => r.status >= 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((r) => r.status)).size).toBeGreaterThan(1);
  });

  it('a final 5xx is a ServerError after the retries', async () => {
    await setFaults({ interface: 'evm', rate: 1, statuses: [502] });
    const client = sdk({ maxAttempts: 2 });
    const error = await getEntity(client, { entityId: 'binance' }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServerError);
    expect(await requestsServed()).toHaveLength(2);
  });

  it('reset connections are network errors, retried for idempotent calls', async () => {
    await setFaults({ interface: 'evm', resetRate: 1 });
    const client = sdk({ maxAttempts: 3 });
    const error = await getEntity(client, { entityId: 'binance' }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    const served = await requestsServed();
    expect(served).toHaveLength(3);
    expect(served.every((r) => r.fault === 'reset' && r.status === 0)).toBe(true);
  });

  it('a truncated body fails the attempt', async () => {
    await setFaults({ interface: 'evm', truncateRate: 1 });
    const client = sdk({ maxAttempts: 2 });
    const error = await getEntity(client, { entityId: 'binance' }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((await requestsServed()).map((r) => r.fault)).toEqual(['truncate', 'truncate']);
  });

  it('added latency makes a short client timeout fire', async () => {
    await setFaults({ interface: 'evm', latencyMs: 2_000 });
    const client = sdk({ maxAttempts: 1 }, 100);
    const error = await getEntity(client, { entityId: 'binance' }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('retryAfterSeconds null: a 429 without Retry-After', async () => {
    await setFaults({ interface: 'evm', rate: 1, statuses: [429, 503], retryAfterSeconds: null });
    for (let i = 0; i < 4; i++) {
      const response = await call(`${emu.urls.evm}/entities/binance`, { key: emu.apiKey });
      expect([429, 503]).toContain(response.status);
      expect(response.headers.get('retry-after')).toBeNull();
    }
  });

  it('logs X-Request-Id and when each request came and was answered, to the sub-millisecond', async () => {
    await setFaults({ interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0 });
    const before = performance.timeOrigin + performance.now();
    await fetch(`${emu.urls.evm}/entities/binance`, {
      headers: { 'x-api-key': emu.apiKey, 'x-request-id': 'call-7' },
    });
    await fetch(`${emu.urls.evm}/entities/binance`, {
      headers: { 'x-api-key': emu.apiKey, 'x-request-id': 'not visible ascii' },
    });
    const [first, second] = (await call(`${emu.control}/requests?interface=evm`)).body.requests;
    expect(first.requestId).toBe('call-7');
    expect(second.requestId).toBeUndefined();
    expect(first.receivedAt).toBeGreaterThanOrEqual(before - 1);
    expect(first.answeredAt).toBeGreaterThanOrEqual(first.receivedAt);
    expect(second.receivedAt).toBeGreaterThan(first.answeredAt);
    expect(Number.isInteger(first.receivedAt) && Number.isInteger(second.receivedAt)).toBe(false);
  });

  it('faults on one interface leave the others alone, and DELETE /faults ends them', async () => {
    await setFaults({ interface: 'solana', rate: 1, statuses: [503] });
    expect((await call(`${emu.urls.evm}/entities/binance`, { key: emu.apiKey })).status).toBe(200);
    const current = await call(`${emu.control}/faults`);
    expect(Object.keys(current.body.faults)).toEqual(['solana']);
    await call(`${emu.control}/faults?interface=solana`, { method: 'DELETE' });
    expect((await call(`${emu.control}/faults`)).body.faults).toEqual({});
  });
});

describe('fault decisions', () => {
  it('follow the seed', () => {
    const sequence = (seed: number) => {
      const faults = createFaults(seed, { evm: { rate: 0.3, resetRate: 0.1, truncateRate: 0.1 } });
      return Array.from({ length: 50 }, () => faults.decide('evm').kind).join();
    };
    expect(sequence(7)).toBe(sequence(7));
    expect(sequence(7)).not.toBe(sequence(8));
    expect(sequence(7)).toMatch(/status/);
  });

  it('can be set from the options at start', async () => {
    const withFaults = await emulator({ faults: { all: { rate: 1, statuses: [500] } } });
    try {
      const response = await call(`${withFaults.urls.streams}/streams/bitcoin`, { key: withFaults.apiKey });
      expect(response.status).toBe(500);
    } finally {
      await withFaults.close();
    }
  });
});
