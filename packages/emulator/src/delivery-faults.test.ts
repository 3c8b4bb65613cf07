/**
 * Faults of outgoing webhook deliveries, driven through the control API against a real receiver:
 * attempts lost before the receiver (it sees nothing) or after it (it sees a duplicate).
 */
import {
  addBitcoinStreamAddress,
  createBitcoinStream,
  deleteBitcoinStream,
  getBitcoinStream,
} from '@blockwire/streams';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRecord, DeliveryTotals } from './delivery/engine.js';
import { type Receiver, startReceiver } from './delivery/test-support.js';
import { createFaults } from './faults.js';
import type { Emulator } from './server.js';
import { call, clientFor, emulator } from './test-support.js';

const WATCHED = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
/** Five waits: six attempts, as many as the default schedule makes, without its 15 s of waiting. */
const RETRY_DELAYS_MS = [1, 2, 4, 8, 16];

let emu: Emulator;
let receiver: Receiver;
let client: ReturnType<typeof clientFor>;
const streamIds: string[] = [];
beforeAll(async () => {
  [emu, receiver] = await Promise.all([
    emulator({ seed: 3, delivery: { retryDelaysMs: RETRY_DELAYS_MS } }),
    startReceiver(),
  ]);
  client = clientFor(emu);
});
afterAll(async () => {
  await client.close();
  await emu.close();
  await receiver.close();
});
afterEach(async () => {
  for (const id of streamIds.splice(0)) await deleteBitcoinStream(client, { id });
  await call(`${emu.control}/faults`, { method: 'DELETE' });
  await call(`${emu.control}/deliveries`, { method: 'DELETE' });
  receiver.requests.length = 0;
});

const setFaults = (body: Record<string, unknown>) => call(`${emu.control}/faults`, { method: 'POST', body });
const deliveryLog = async () =>
  (await call(`${emu.control}/deliveries`)).body as { totals: DeliveryTotals; deliveries: DeliveryRecord[] };

async function watchingStream(): Promise<string> {
  const stream = await createBitcoinStream(client, { webhookUrl: receiver.url });
  streamIds.push(stream.id);
  await addBitcoinStreamAddress(client, { id: stream.id, address: WATCHED });
  return stream.id;
}

/** One mempool delivery per payment; resolves with the txids in the order they were sent. */
async function pay(count: number): Promise<string[]> {
  const txids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body } = await call(`${emu.control}/bitcoin/transactions`, {
      method: 'POST',
      body: { to: WATCHED, amountBtc: '0.001' },
    });
    txids.push(body.txid);
  }
  return txids;
}

/** The log once `count` deliveries have ended, delivered or out of attempts. */
async function deliveredAll(
  count: number,
): Promise<{ totals: DeliveryTotals; deliveries: DeliveryRecord[] }> {
  const deadline = Date.now() + 60_000;
  while (true) {
    const log = await deliveryLog();
    if (log.totals.delivered + log.totals.exhausted >= count) return log;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} deliveries to end`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Attempts grouped by delivery, in delivery order (one stream: the order payments were made). */
function byDelivery(deliveries: DeliveryRecord[]): DeliveryRecord[][] {
  const groups = new Map<number, DeliveryRecord[]>();
  for (const attempt of deliveries)
    groups.set(attempt.delivery, [...(groups.get(attempt.delivery) ?? []), attempt]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, attempts]) => attempts);
}

/** The deliveries the receiver saw for a txid: the `retries` of each, in arrival order. */
const seenRetries = (txid: string) =>
  receiver
    .deliveries()
    .filter((request) => request.json.transactions[0].txid === txid)
    .map((request) => request.json.retries as number);

describe('delivery faults', () => {
  // 1000 deliveries, so 4 standard deviations (about 43 of some 1270 attempts) still tell a rate
  // from its half. One stream takes the draws in order, so seed 3 gives the same run each time; a
  // random seed would see a delivery lose all six attempts (0.2^6 each) in 6 % of runs.
  it('lose the configured shares of 1000 deliveries both ways, and every delivery still arrives', async () => {
    const set = await setFaults({ interface: 'deliveries', lostRequestRate: 0.1, lostAnswerRate: 0.1 });
    expect(set.body.faults).toEqual({ deliveries: { lostRequestRate: 0.1, lostAnswerRate: 0.1 } });
    const streamId = await watchingStream();
    const txids = await pay(1000);
    const { totals, deliveries } = await deliveredAll(1000);

    expect(totals.delivered).toBe(1000);
    expect(totals.exhausted).toBe(0);
    expect(totals.attempts).toBe(deliveries.length);
    // Each kind is one Bernoulli(0.1) per attempt: within 4 standard deviations of the binomial.
    const tolerance = 4 * Math.sqrt(totals.attempts * 0.1 * 0.9);
    for (const kind of ['lostRequest', 'lostAnswer'] as const) {
      expect(Math.abs(totals[kind] - totals.attempts * 0.1), kind).toBeLessThanOrEqual(tolerance);
    }
    expect(totals.lostRequest).toBe(deliveries.filter((a) => a.fault === 'lost-request').length);
    expect(totals.lostAnswer).toBe(deliveries.filter((a) => a.fault === 'lost-answer').length);

    const groups = byDelivery(deliveries);
    expect(groups).toHaveLength(1000);
    for (const [index, attempts] of groups.entries()) {
      // Only the last attempt delivered; the ones before it were lost one way or the other.
      expect(attempts.map((a) => a.delivered)).toEqual([...attempts.slice(1).map(() => false), true]);
      expect(attempts.slice(0, -1).every((a) => a.fault !== undefined)).toBe(true);
      expect(attempts.map((a) => a.retries)).toEqual(attempts.map((_, i) => i));
      // The receiver saw every attempt but the lost requests: each lost answer is a duplicate.
      const reached = attempts.filter((a) => a.fault !== 'lost-request');
      expect(seenRetries(txids[index]!), `delivery ${index}`).toEqual(reached.map((a) => a.retries));
      expect(reached.every((a) => a.status === 200)).toBe(true);
    }
    expect(receiver.deliveries()).toHaveLength(totals.delivered + totals.lostAnswer);
    expect((await getBitcoinStream(client, { id: streamId })).status).toBe('active');
  }, 90_000);

  it('a delivery that loses all six attempts puts its stream in error, as a failing receiver does', async () => {
    await setFaults({ interface: 'deliveries', lostRequestRate: 1 });
    const streamId = await watchingStream();
    await pay(1);
    const { totals, deliveries } = await deliveredAll(1);
    expect(totals).toEqual({ attempts: 6, delivered: 0, exhausted: 1, lostRequest: 6, lostAnswer: 0 });
    expect(deliveries.map((a) => a.error)).toEqual(Array(6).fill('request lost (injected fault)'));
    expect(receiver.deliveries()).toHaveLength(0);
    const stream = await getBitcoinStream(client, { id: streamId });
    expect(stream.status).toBe('error');
    expect(stream.statusMessage).toMatch(/after 6 attempts \(last: request lost \(injected fault\)\)/);
  });

  it('end with DELETE /faults, of the deliveries alone or of all', async () => {
    await setFaults({ interface: 'evm', rate: 0.5 });
    await setFaults({ interface: 'deliveries', lostAnswerRate: 0.5 });
    expect(Object.keys((await call(`${emu.control}/faults`)).body.faults)).toEqual(['evm', 'deliveries']);
    const cleared = await call(`${emu.control}/faults?interface=deliveries`, { method: 'DELETE' });
    expect(Object.keys(cleared.body.faults)).toEqual(['evm']);

    await watchingStream();
    await pay(20);
    const { totals } = await deliveredAll(20);
    expect(totals).toEqual({ attempts: 20, delivered: 20, exhausted: 0, lostRequest: 0, lostAnswer: 0 });

    await setFaults({ interface: 'deliveries', lostRequestRate: 0.2 });
    expect((await call(`${emu.control}/faults`, { method: 'DELETE' })).body.faults).toEqual({});
    expect((await call(`${emu.control}/deliveries`, { method: 'DELETE' })).body).toEqual({ cleared: true });
    expect(await deliveryLog()).toEqual({
      totals: { attempts: 0, delivered: 0, exhausted: 0, lostRequest: 0, lostAnswer: 0 },
      deliveries: [],
    });
  });

  it('refuse bad settings with a message naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ interface: 'deliveries', lostRequestRate: 2 }, /^Invalid request: lostRequestRate /],
      [
        { interface: 'deliveries', lostAnswerRate: 'half' },
        /^Invalid request: lostAnswerRate must be a number/,
      ],
      [
        { interface: 'deliveries', lostRequestRate: 0.6, lostAnswerRate: 0.5 },
        /^Invalid request: lostAnswerRate must be at most 1 - lostRequestRate/,
      ],
      [{ interface: 'deliveries', rate: 0.2 }, /^Invalid request: unknown field\(s\) rate$/],
      [{ interface: 'delivery', lostRequestRate: 0.1 }, /interface must be one of .*, deliveries/],
    ];
    for (const [body, message] of cases) {
      const answer = await setFaults(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    const badDelete = await call(`${emu.control}/faults?interface=delivery`, { method: 'DELETE' });
    expect(badDelete.status).toBe(400);
    expect(badDelete.body.message).toMatch(/^Invalid request: interface must be one of .*deliveries, all/);
    // The two rates may fill the whole draw (0.3 + 0.7 sums to 0.9999999999999999 in floating point).
    expect(
      (await setFaults({ interface: 'deliveries', lostRequestRate: 0.3, lostAnswerRate: 0.7 })).status,
    ).toBe(200);
    expect(
      (await setFaults({ interface: 'deliveries', lostRequestRate: 0.5, lostAnswerRate: 0.5 })).status,
    ).toBe(200);
  });
});

describe('delivery fault decisions', () => {
  it('follow the seed, apart from the request faults drawn meanwhile', () => {
    const sequence = (seed: number, requestsBetween: number) => {
      const faults = createFaults(seed, {
        evm: { rate: 0.5 },
        deliveries: { lostRequestRate: 0.2, lostAnswerRate: 0.2 },
      });
      return Array.from({ length: 60 }, () => {
        for (let i = 0; i < requestsBetween; i++) faults.decide('evm');
        return faults.decideDelivery() ?? 'none';
      }).join();
    };
    expect(sequence(7, 0)).toBe(sequence(7, 3));
    expect(sequence(7, 0)).not.toBe(sequence(8, 0));
    expect(sequence(7, 0)).toMatch(/lost-request.*lost-answer|lost-answer.*lost-request/);
  });

  it('are none without the option, and the option sets them from the start', () => {
    expect(createFaults(1).decideDelivery()).toBeUndefined();
    const faults = createFaults(1, { deliveries: { lostAnswerRate: 1 } });
    expect(faults.current()).toEqual({ deliveries: { lostRequestRate: 0, lostAnswerRate: 1 } });
    expect(faults.decideDelivery()).toBe('lost-answer');
  });
});
