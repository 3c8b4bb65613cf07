import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, type AttemptSlot, type AttemptSlots } from './adaptive-concurrency.js';
import { createClientWith } from './client.js';
import { createClient } from './create-client.js';
import { RateLimitError } from './errors.js';
import { recordingRuntime } from './recording-runtime.test-support.js';
import type { TransportRequest, TransportResponse } from './transport.js';

/** Takes `count` slots at once (each must be free now). */
async function takeAll(limiter: AdaptiveConcurrency, count: number): Promise<AttemptSlot[]> {
  return Promise.all(Array.from({ length: count }, () => limiter.take()));
}

describe('AdaptiveConcurrency', () => {
  it('lets the maximum through, and holds the next attempt until a slot is given back', async () => {
    const limiter = new AdaptiveConcurrency(3);
    const slots = await takeAll(limiter, 3);
    let fourth = false;
    const waiting = limiter.take().then((slot) => {
      fourth = true;
      return slot;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fourth).toBe(false);
    slots[0]!.give('done');
    (await waiting).give('done');
    expect(fourth).toBe(true);
    expect(limiter.inFlight).toBe(2);
  });

  it('halves the limit once for the 429s of attempts sent at the same limit, never below 1', async () => {
    // Nothing served yet: no number the service is known to take, so each cut halves.
    const limiter = new AdaptiveConcurrency(16);
    const burst = await takeAll(limiter, 16);
    for (const slot of burst) slot.give('refused');
    expect(limiter.limit).toBe(8);
    // Sent after the cut: its 429 says the lowered limit is still too many.
    const after = await limiter.take();
    after.give('refused');
    expect(limiter.limit).toBe(4);
    for (let i = 0; i < 5; i++) (await limiter.take()).give('refused');
    expect(limiter.limit).toBe(1);
  });

  it('grows back by one after a run of successes as long as the limit, up to the maximum', async () => {
    const limiter = new AdaptiveConcurrency(6);
    (await limiter.take()).give('refused');
    expect(limiter.limit).toBe(3);
    const succeed = async (count: number) => {
      for (let i = 0; i < count; i++) (await limiter.take()).give('done');
    };
    await succeed(2);
    expect(limiter.limit).toBe(3);
    await succeed(1);
    expect(limiter.limit).toBe(4);
    await succeed(4 + 5);
    expect(limiter.limit).toBe(6);
    await succeed(50);
    expect(limiter.limit).toBe(6);
  });

  it('starts a new run of successes after a 429 of an attempt sent before the cut', async () => {
    const limiter = new AdaptiveConcurrency(4);
    const [early, late] = await takeAll(limiter, 2);
    early!.give('refused');
    expect(limiter.limit).toBe(2);
    (await limiter.take()).give('done');
    late!.give('refused'); // no second cut: sent at the old limit
    expect(limiter.limit).toBe(2);
    (await limiter.take()).give('done');
    expect(limiter.limit).toBe(2); // one success since the 429, not two
    (await limiter.take()).give('done');
    expect(limiter.limit).toBe(3);
  });

  it('goes back to the most it saw served when a refusal comes above it, and halves one at or below it', async () => {
    const limiter = new AdaptiveConcurrency(16);
    // The first cut: nothing served since the start, so half.
    (await limiter.take()).give('refused');
    expect(limiter.limit).toBe(8);
    // Eight in flight, all served: the service takes eight at once.
    for (const slot of await takeAll(limiter, 8)) slot.give('done');
    expect(limiter.limit).toBe(9);
    for (const slot of await takeAll(limiter, 9)) slot.give('done');
    expect(limiter.limit).toBe(10);
    // Ten at once: nine served, the tenth (sent with ten in flight) refused. The service took
    // nine: back to nine, not to five.
    const ten = await takeAll(limiter, 10);
    ten[9]!.give('refused');
    expect(limiter.limit).toBe(9);
    for (const slot of ten.slice(0, 9)) slot.give('done');
    // Back up to ten, the number refused, takes a run of 4 × 9 successes, not 9.
    for (let i = 0; i < 4 * 9 - 10; i++) (await limiter.take()).give('done');
    expect(limiter.limit).toBe(9);
    (await limiter.take()).give('done');
    expect(limiter.limit).toBe(10);
    // Refused with fewer in flight than it served before (a rate, or less room left): half.
    const alone = await limiter.take();
    expect(alone.give('refused')).toBe(false);
    expect(limiter.limit).toBe(5);
    // And the growth after a halving is one per run as long as the limit again.
    for (let i = 0; i < 5; i++) (await limiter.take()).give('done');
    expect(limiter.limit).toBe(6);
  });

  it('says whether a 429 came while other attempts were in flight', async () => {
    const limiter = new AdaptiveConcurrency(4);
    const [a, b] = await takeAll(limiter, 2);
    expect(a!.give('refused')).toBe(true);
    expect(b!.give('refused')).toBe(false);
    const c = await limiter.take();
    const d = await limiter.take();
    expect(c.give('done')).toBe(false);
    expect(d.give('done')).toBe(false);
  });

  it('hands a free slot to a retry before the first attempts that wait', async () => {
    const limiter = new AdaptiveConcurrency(1);
    const held = await limiter.take();
    const order: string[] = [];
    const first = limiter.take().then((slot) => {
      order.push('first');
      return slot;
    });
    const retry = limiter.take(undefined, true).then((slot) => {
      order.push('retry');
      return slot;
    });
    held.give('done');
    (await retry).give('done');
    (await first).give('done');
    expect(order).toEqual(['retry', 'first']);
  });

  it('counts a slot given back twice once', async () => {
    const limiter = new AdaptiveConcurrency(2);
    const slot = await limiter.take();
    slot.give('done');
    slot.give('done');
    expect(limiter.inFlight).toBe(0);
  });

  it('stops waiting for a slot when the signal aborts, and the slot goes to the next one', async () => {
    const limiter = new AdaptiveConcurrency(1);
    const held = await limiter.take();
    const controller = new AbortController();
    const aborted = limiter.take(controller.signal);
    const next = limiter.take();
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    held.give('done');
    (await next).give('done');
    expect(limiter.inFlight).toBe(0);
    await expect(limiter.take(controller.signal)).rejects.toThrow('stop');
  });

  it('refuses a maximum that is not a whole number >= 1', () => {
    for (const max of [0, -1, 1.5, Number.NaN])
      expect(() => new AdaptiveConcurrency(max)).toThrow(RangeError);
  });
});

describe('client.request with attemptSlots', () => {
  it('takes a slot per attempt, gives a 429 back as refused, and holds none while waiting to retry', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '0.05' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createClient({ apiKey: 'test-key-1234567890', baseUrls: { evm: url } });
    const limiter = new AdaptiveConcurrency(4);
    const events: string[] = [];
    const attemptSlots: AttemptSlots = {
      async take(signal) {
        const slot = await limiter.take(signal);
        events.push(`take (${limiter.inFlight} in flight)`);
        return {
          give(ended) {
            slot.give(ended);
            events.push(`${ended} (${limiter.inFlight} in flight)`);
          },
        };
      },
    };
    try {
      const response = await client.request({
        api: 'evm',
        method: 'GET',
        path: '/x',
        idempotent: true,
        attemptSlots,
      });
      expect(response.data).toEqual({ ok: true });
      expect(events).toEqual([
        'take (1 in flight)',
        'refused (0 in flight)',
        'take (1 in flight)',
        'done (0 in flight)',
      ]);
      expect(limiter.limit).toBe(2);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/**
 * A service that serves at most `allowed` requests at once and answers any more at once with a
 * 429 and `Retry-After: 1`; a request named in `refuse` is refused that many more times whatever
 * is in flight (a rate limit). Served requests are held until `release()`. Nothing waits: the
 * runtime records the waits the client asks for and returns at once.
 */
function limitedService(allowed: number, refuse: Record<string, number> = {}) {
  const sent: string[] = [];
  const waits: number[] = [];
  const retries: { path: string; delayMs: number }[] = [];
  let serving = 0;
  let peak = 0;
  let held: (() => void)[] = [];
  const transport = async (request: TransportRequest): Promise<TransportResponse> => {
    const url = new URL(request.url).pathname;
    const path = url.slice(url.lastIndexOf('/'));
    sent.push(path);
    if (serving >= allowed || (refuse[path] ?? 0) > 0) {
      if ((refuse[path] ?? 0) > 0) refuse[path]!--;
      return { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"Too many requests"}' };
    }
    serving++;
    peak = Math.max(peak, serving);
    await new Promise<void>((resolve) => held.push(resolve));
    serving--;
    return { status: 200, headers: {}, body: `{"path":"${path}"}` };
  };
  const runtime = recordingRuntime(waits);
  const client = createClientWith(
    {
      apiKey: 'k',
      transport,
      retry: { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 5_000 },
      hooks: { onRetry: ({ path, delayMs }) => retries.push({ path, delayMs }) },
    },
    runtime,
  );
  return {
    client,
    sent,
    waits,
    retries,
    peak: () => peak,
    serving: () => serving,
    /** Answers the requests served so far. */
    release() {
      const now = held;
      held = [];
      for (const resolve of now) resolve();
    },
  };
}

/** Lets every pending promise callback run (no timer involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('client.request with attemptSlots: a 429 while others are in flight', () => {
  const get = (
    service: ReturnType<typeof limitedService>,
    path: string,
    slots: AttemptSlots,
    signal?: AbortSignal,
  ) =>
    service.client.request({
      api: 'evm',
      method: 'GET',
      path,
      idempotent: true,
      attemptSlots: slots,
      signal,
    });

  it('sends the refused requests again as soon as a slot is free under the lowered limit, without waiting', async () => {
    const service = limitedService(2);
    const limiter = new AdaptiveConcurrency(4);
    const calls = ['/a', '/b', '/c', '/d'].map((path) => get(service, path, limiter));
    await settle();
    // /c and /d were refused while /a and /b were served: the limit fell to 2, and they wait
    // for a slot, not for Retry-After.
    expect(service.sent).toEqual(['/a', '/b', '/c', '/d']);
    expect(limiter.limit).toBe(2);
    expect(service.waits).toEqual([]);
    expect(service.retries).toEqual([
      { path: '/c', delayMs: 0 },
      { path: '/d', delayMs: 0 },
    ]);
    service.release();
    await settle();
    expect(service.sent).toEqual(['/a', '/b', '/c', '/d', '/c', '/d']);
    service.release();
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.attempts)).toEqual([1, 1, 2, 2]);
    expect(service.peak()).toBe(2);
    expect(service.waits).toEqual([]);
  });

  it('sends a request again at once only once: its second 429 waits out Retry-After', async () => {
    // /b is refused twice whatever is in flight, as a rate limit would.
    const service = limitedService(10, { '/b': 2 });
    const limiter = new AdaptiveConcurrency(4);
    const a = get(service, '/a', limiter);
    const b = get(service, '/b', limiter);
    await settle();
    expect(service.retries).toEqual([
      { path: '/b', delayMs: 0 },
      { path: '/b', delayMs: 1_000 },
    ]);
    expect(service.waits).toEqual([1_000]);
    service.release();
    await settle();
    service.release();
    expect((await b).attempts).toBe(3);
    expect((await a).attempts).toBe(1);
  });

  it('waits out Retry-After for a 429 with nothing else in flight', async () => {
    const service = limitedService(10, { '/a': 1 });
    const limiter = new AdaptiveConcurrency(4);
    const a = get(service, '/a', limiter);
    await settle();
    expect(service.waits).toEqual([1_000]);
    expect(service.retries).toEqual([{ path: '/a', delayMs: 1_000 }]);
    service.release();
    expect((await a).attempts).toBe(2);
  });

  it('counts the attempt sent at once within maxAttempts', async () => {
    let sent = 0;
    const waits: number[] = [];
    const client = createClientWith(
      {
        apiKey: 'k',
        transport: async () => {
          sent++;
          return { status: 429, headers: { 'retry-after': '1' }, body: '' };
        },
        retry: { maxAttempts: 2 },
      },
      {
        userAgent: undefined,
        attempts: () => ({
          start: (_signal, send) =>
            new Promise((resolve, reject) => send({ resolve, reject, onCancel: undefined })),
        }),
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    );
    const limiter = new AdaptiveConcurrency(2);
    // Another attempt holds a slot, so the 429 comes beside it: the request is sent again as
    // soon as that slot is free, is refused again, and with two attempts in all, that is the end.
    const other = await limiter.take();
    const request = client
      .request({ api: 'evm', method: 'GET', path: '/x', idempotent: true, attemptSlots: limiter })
      .catch((e: unknown) => e);
    await settle();
    expect(sent).toBe(1);
    other.give('done');
    const error = await request;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).attempts).toBe(2);
    expect(sent).toBe(2);
    expect(waits).toEqual([]);
  });

  it('stops a request waiting for a slot to be sent again when its signal aborts', async () => {
    const service = limitedService(1);
    const limiter = new AdaptiveConcurrency(2);
    const controller = new AbortController();
    const a = get(service, '/a', limiter);
    const b = get(service, '/b', limiter, controller.signal);
    await settle();
    // /b was refused beside /a; the limit is 1 and /a holds it: /b waits for the slot.
    expect(limiter.limit).toBe(1);
    expect(service.sent).toEqual(['/a', '/b']);
    controller.abort(new Error('stop'));
    await expect(b).rejects.toThrow('stop');
    service.release();
    expect((await a).attempts).toBe(1);
    await settle();
    expect(service.sent).toEqual(['/a', '/b']);
    expect(limiter.inFlight).toBe(0);
  });
});
