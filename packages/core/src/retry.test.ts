import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY, decideRetry, parseRetryAfter, resolveRetryOptions } from './retry.js';

const options = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1_500);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-5')).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('is full jitter under an exponentially growing, capped ceiling', () => {
    expect(backoffDelay(1, options, () => 0.999999)).toBe(99);
    expect(backoffDelay(2, options, () => 0.999999)).toBe(199);
    expect(backoffDelay(3, options, () => 0.999999)).toBe(399);
    expect(backoffDelay(10, options, () => 0.999999)).toBe(999);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });
});

describe('decideRetry', () => {
  const decide = (outcome: Parameters<typeof decideRetry>[0]['outcome'], attempt = 1, idempotent = true) =>
    decideRetry({ attempt, outcome, idempotent, options, random: () => 0.5 });

  it.each([408, 429, 500, 502, 503, 504])('retries HTTP %i on a request safe to repeat', (status) => {
    expect(decide({ kind: 'status', status })).toEqual({ retry: true, delayMs: 50 });
  });

  it.each([400, 401, 403, 404, 409, 422, 501])('does not retry HTTP %i', (status) => {
    expect(decide({ kind: 'status', status })).toMatchObject({ retry: false, reason: 'not-retryable' });
  });

  it('retries timeouts and resets when safe to repeat', () => {
    expect(decide({ kind: 'timeout' }).retry).toBe(true);
    expect(decide({ kind: 'network', code: 'ECONNRESET' }).retry).toBe(true);
    expect(decide({ kind: 'network', code: 'UND_ERR_SOCKET' }).retry).toBe(true);
  });

  it('stops after maxAttempts attempts in all', () => {
    expect(decide({ kind: 'status', status: 503 }, 3).retry).toBe(true);
    expect(decide({ kind: 'status', status: 503 }, 4)).toMatchObject({ retry: false, reason: 'exhausted' });
  });

  it('repeats a request that is not safe to repeat only when it provably never left', () => {
    expect(decide({ kind: 'network', code: 'ECONNREFUSED' }, 1, false).retry).toBe(true);
    expect(decide({ kind: 'status', status: 503 }, 1, false)).toMatchObject({ reason: 'unsafe-to-repeat' });
    expect(decide({ kind: 'status', status: 429 }, 1, false)).toMatchObject({ reason: 'unsafe-to-repeat' });
    expect(decide({ kind: 'timeout' }, 1, false)).toMatchObject({ reason: 'unsafe-to-repeat' });
    expect(decide({ kind: 'network', code: 'ECONNRESET' }, 1, false)).toMatchObject({
      reason: 'unsafe-to-repeat',
    });
  });

  it('never waits less than Retry-After', () => {
    expect(decide({ kind: 'status', status: 429, retryAfterMs: 700 })).toEqual({ retry: true, delayMs: 700 });
    expect(decide({ kind: 'status', status: 503, retryAfterMs: 10 })).toEqual({ retry: true, delayMs: 50 });
  });

  it('gives up when Retry-After is longer than maxDelayMs', () => {
    expect(decide({ kind: 'status', status: 429, retryAfterMs: 5_000 })).toEqual({
      retry: false,
      reason: 'retry-after-too-long',
      retryAfterMs: 5_000,
    });
  });

  it('gives up rather than undercut a Retry-After no timer can hold, even with maxDelayMs: Infinity', () => {
    const unbounded = { maxAttempts: 40, baseDelayMs: 300, maxDelayMs: Number.POSITIVE_INFINITY };
    const thirtyDays = 30 * 24 * 3_600_000;
    expect(
      decideRetry({
        attempt: 1,
        outcome: { kind: 'status', status: 429, retryAfterMs: thirtyDays },
        idempotent: true,
        options: unbounded,
      }),
    ).toEqual({ retry: false, reason: 'retry-after-too-long', retryAfterMs: thirtyDays });
    expect(backoffDelay(35, unbounded, () => 0.999)).toBeLessThanOrEqual(2_147_483_647);
  });
});

describe('resolveRetryOptions', () => {
  it('fills defaults, and false means one attempt', () => {
    expect(resolveRetryOptions(undefined)).toEqual(DEFAULT_RETRY);
    expect(resolveRetryOptions({ maxAttempts: 5 })).toEqual({ ...DEFAULT_RETRY, maxAttempts: 5 });
    expect(resolveRetryOptions(false).maxAttempts).toBe(1);
  });

  it('rejects nonsense', () => {
    expect(() => resolveRetryOptions({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => resolveRetryOptions({ baseDelayMs: -1 })).toThrow(/baseDelayMs/);
  });
});
