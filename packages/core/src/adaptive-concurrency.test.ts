import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, type AttemptSlot, type AttemptSlots } from './adaptive-concurrency.js';
import { createClient } from './create-client.js';

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
