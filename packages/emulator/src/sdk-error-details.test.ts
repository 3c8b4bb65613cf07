/** What an `ApiError` tells an operator about the answer that caused it, against the emulator. */
import { ApiError, AuthenticationError, createClient, NotFoundError, RateLimitError } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from './test-support.js';

const t = useEmulator();
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error,
  );

describe('ApiError: the request id and headers of the answer', () => {
  it('carries the service’s request id, in its message as well, and the headers with names in lower case', async () => {
    const error = (await failure(
      getEvmTokenPrice(t.client, { address: WETH, minPairSideLiquidityUsd: 1e12 }),
    )) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.requestId).toMatch(/^emu_[0-9a-z]+$/);
    expect(error.message).toContain(`(request id ${error.requestId})`);
    expect(error.headers['x-request-id']).toBe(error.requestId);
    expect(error.headers['content-type']).toMatch(/json/);
    expect(Object.keys(error.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(Object.isFrozen(error.headers)).toBe(true);
  });

  it('a refused key: the key in no header, no message and no JSON of the error', async () => {
    const wrongKey = 'wrong-key-0123456789abcdef';
    const client = createClient({ apiKey: wrongKey, baseUrls: t.emu.urls, retry: false });
    try {
      const error = (await failure(getEvmTokenPrice(client, { address: WETH }))) as AuthenticationError;
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.requestId).toEqual(expect.any(String));
      const everything = JSON.stringify({ error, headers: error.headers, message: error.message });
      expect(everything).not.toContain(wrongKey);
    } finally {
      await client.close();
    }
  });

  it('a 429 after its retries: the last answer’s request id and headers, Retry-After among them', async () => {
    await call(`${t.emu.control}/faults`, {
      method: 'POST',
      body: { interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0 },
    });
    const client = createClient({
      apiKey: t.emu.apiKey,
      baseUrls: t.emu.urls,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    try {
      const error = (await failure(getEvmTokenPrice(client, { address: WETH }))) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.attempts).toBe(2);
      expect(error.requestId).toEqual(expect.any(String));
      expect(error.headers['retry-after']).toBe('0');
    } finally {
      await client.close();
      await call(`${t.emu.control}/faults`, { method: 'DELETE' });
    }
  });

  it('a request-id header that is not visible ASCII is not taken as one', async () => {
    const { apiErrorFor } = await import('@blockwire/core/operations');
    const error = apiErrorFor({ status: 500, headers: { 'x-request-id': 'with space' } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.requestId).toBeUndefined();
  });
});
