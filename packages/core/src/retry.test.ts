import { afterEach, describe, expect, it } from 'vitest';
import { sleepAtLeast } from './attempts.js';
import { ValidationError } from './errors.js';
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

  it('repeats a request that is not safe to repeat only when the service provably did nothing', () => {
    expect(decide({ kind: 'network', code: 'ECONNREFUSED' }, 1, false).retry).toBe(true);
    // A 429 is a refusal before any work: retried for every request, Retry-After honoured.
    expect(decide({ kind: 'status', status: 429 }, 1, false)).toEqual({ retry: true, delayMs: 50 });
    expect(decide({ kind: 'status', status: 429, retryAfterMs: 700 }, 1, false)).toEqual({
      retry: true,
      delayMs: 700,
    });
    expect(decide({ kind: 'status', status: 429 }, 4, false)).toMatchObject({ reason: 'exhausted' });
    for (const status of [500, 502, 503, 504, 408]) {
      expect(decide({ kind: 'status', status }, 1, false)).toMatchObject({ reason: 'unsafe-to-repeat' });
    }
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

  it('takes a setting left undefined as its default', () => {
    expect(resolveRetryOptions({ maxAttempts: undefined })).toEqual(DEFAULT_RETRY);
    expect(resolveRetryOptions({ baseDelayMs: undefined, maxDelayMs: 5 })).toEqual({
      ...DEFAULT_RETRY,
      maxDelayMs: 5,
    });
  });

  it.each<[unknown, string]>([
    [{ maxAttempts: 0 }, 'retry.maxAttempts'],
    [{ maxAttempts: -1 }, 'retry.maxAttempts'],
    [{ maxAttempts: 1.5 }, 'retry.maxAttempts'],
    [{ maxAttempts: Number.NaN }, 'retry.maxAttempts'],
    [{ maxAttempts: '3' }, 'retry.maxAttempts'],
    [{ maxAttempts: null }, 'retry.maxAttempts'],
    [{ baseDelayMs: -1 }, 'retry.baseDelayMs'],
    [{ baseDelayMs: Number.NaN }, 'retry.baseDelayMs'],
    [{ baseDelayMs: Number.POSITIVE_INFINITY }, 'retry.baseDelayMs'],
    [{ maxDelayMs: -5 }, 'retry.maxDelayMs'],
    [{ maxDelayMs: '1000' }, 'retry.maxDelayMs'],
    [{ attempts: 5 }, 'retry.attempts'],
    [null, 'retry'],
    [true, 'retry'],
    [3, 'retry'],
    [[], 'retry'],
  ])('rejects %j with a ValidationError naming %s', (retry, path) => {
    let error: unknown;
    try {
      resolveRetryOptions(retry as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toContain(path);
  });

  it('suggests the retry setting a mistyped name meant', () => {
    expect(() => resolveRetryOptions({ maxAttempt: 2 } as never)).toThrow(
      /retry\.maxAttempt: is not a retry setting \(did you mean "maxAttempts"\?\)/,
    );
  });
});

describe('sleepAtLeast', () => {
  const realSetTimeout = globalThis.setTimeout;
  afterEach(() => {
    globalThis.setTimeout = realSetTimeout;
  });

  it('never ends early, even when the timer fires early (Node timers may, by up to a millisecond)', async () => {
    // A timer that fires 2 ms before its time, as a coarse clock would.
    globalThis.setTimeout = ((fn: () => void, ms: number) =>
      realSetTimeout(fn, Math.max(0, ms - 2))) as typeof setTimeout;
    for (const ms of [5, 20, 50]) {
      const started = performance.now();
      await sleepAtLeast(ms);
      expect(performance.now() - started).toBeGreaterThanOrEqual(ms);
    }
  });

  it('stops at once with the signal’s reason', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = sleepAtLeast(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect(sleepAtLeast(5, controller.signal)).rejects.toThrow('stop');
  });
});
