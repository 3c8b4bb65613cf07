import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../delivery/test-support.js';
import { RefusedRequest } from '../handlers/define.js';
import type { Streams } from './service.js';
import { type Harness, startHarness } from './test-helpers.js';

let harness: Harness;
afterEach(() => harness?.close());

describe('streams control', () => {
  it('mines on an interval with random activity, and stops at 0', async () => {
    harness = await startHarness();
    const simulator = (harness.service as Streams).simulator;
    const start = simulator.height;
    expect(await harness.service.control.auto({ intervalMs: 5 })).toEqual({ intervalMs: 5 });
    await waitFor(() => simulator.height >= start + 3, 10_000, 'three auto-mined blocks');
    await harness.service.control.auto({ intervalMs: 0 });
    const stopped = simulator.height;
    // The interval is cleared synchronously: nothing can mine after this point.
    const { height } = await harness.service.control.mine({ blocks: 1 });
    expect(height).toBe(stopped + 1);
    const mined = simulator.blockAt(start + 1)!;
    expect(mined.transactions.length).toBeGreaterThan(1);
  });

  it('refuses bad control input with a 400 RefusedRequest naming the field', async () => {
    harness = await startHarness();
    const cases: [Promise<unknown>, RegExp][] = [
      [harness.service.control.addTransaction({ to: 'not-an-address', amountBtc: 1 }), /^to /],
      [
        harness.service.control.addTransaction({
          to: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
          amountBtc: 1,
        }),
        /^to /,
      ],
      [
        harness.service.control.addTransaction({
          to: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
          amountBtc: 1,
          from: 'x',
        }),
        /^from /,
      ],
      [
        harness.service.control.addTransaction({
          to: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
          amountBtc: '0.000000001',
        }),
        /^amountBtc /,
      ],
      [
        harness.service.control.addTransaction({ to: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', amountBtc: -1 }),
        /^amountBtc /,
      ],
      [harness.service.control.mine({ blocks: 0 }), /^blocks /],
      [harness.service.control.mine({ blocks: 1.5 }), /^blocks /],
      [harness.service.control.auto({ intervalMs: -1 }), /^intervalMs /],
    ];
    for (const [call, message] of cases) {
      const error = await call.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(RefusedRequest);
      expect((error as RefusedRequest).status).toBe(400);
      expect((error as Error).message).toMatch(message);
    }
    expect((harness.service as Streams).simulator.mempool()).toEqual([]);
  });

  it('forgets the mempool deliveries of transactions confirmed, evicted or replaced, and of deleted streams', async () => {
    harness = await startHarness();
    const service = harness.service as Streams;
    const simulator = service.simulator;
    const create = () =>
      harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url, allAddresses: true });
    const kept = (await create()).body.id;
    const deleted = (await create()).body.id;
    for (let i = 0; i < 60; i++) {
      const [first, second] = simulator.addRandomTransactions(3);
      simulator.replace(first!.txid);
      simulator.evict(second!.txid);
      if (i === 30) await harness.call('deleteBitcoinStream', { id: deleted });
      simulator.mine(1);
    }
    // What may still need a guard: transactions in the mempool or in the two unconfirmed blocks.
    const unconfirmed =
      simulator.mempool().length +
      simulator.blockAt(simulator.height)!.transactions.length +
      simulator.blockAt(simulator.height - 1)!.transactions.length;
    expect(service.retained.mempoolDeliveries).toBeLessThanOrEqual(unconfirmed);
    expect((await harness.call('getBitcoinStream', { id: kept })).status).toBe(200);
  });
});
