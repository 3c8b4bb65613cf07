import { ValidationError } from '@blockwire/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bitcoinDelivery,
  CONFIRMED_DELIVERY,
  IN_BLOCK_DELIVERY,
  MEMPOOL_DELIVERY,
  txidOf,
} from './__fixtures__/bitcoin.js';
import { BITCOIN_DELIVERY_STAGES, type BitcoinDeliveryStage, bitcoinStageRank as rank } from './payloads.js';
import { createMemoryTxStore, type TxStore } from './store.js';
import { createBitcoinTxTracker, type TxChange } from './tracker.js';

/** A store whose every call yields to the event loop, as a database client would. */
function slowStore(): TxStore {
  const inner = createMemoryTxStore();
  const later = async <T>(value: () => T): Promise<Awaited<T>> => {
    await new Promise((resolve) => setImmediate(resolve));
    return await value();
  };
  return {
    get: (txid) => later(() => inner.get(txid)),
    put: (record) => later(() => inner.put(record)),
    list: (query) => later(() => inner.list!(query)),
  };
}

describe('createBitcoinTxTracker', () => {
  it('moves a transaction mempool → in-block → confirmed and reports each move once', async () => {
    const tracker = createBitcoinTxTracker();
    const txid = txidOf(1);
    const first = await tracker.ingest(MEMPOOL_DELIVERY);
    expect(first).toEqual([
      { txid, from: null, to: 'mempool', stage: 'mempool', tx: MEMPOOL_DELIVERY.transactions[0] },
    ]);
    const second = await tracker.ingest(IN_BLOCK_DELIVERY);
    expect(second.map((c) => [c.txid, c.from, c.to])).toEqual([
      [IN_BLOCK_DELIVERY.transactions[0]!.txid, null, 'in-block'],
      [txid, 'mempool', 'in-block'],
    ]);
    const third = await tracker.ingest(CONFIRMED_DELIVERY);
    expect(third.map((c) => [c.from, c.to])).toEqual([
      ['in-block', 'confirmed'],
      ['in-block', 'confirmed'],
    ]);
    const record = await tracker.get(txid);
    expect(record).toMatchObject({ txid, stage: 'confirmed', block: { height: '870000' } });
    expect(record?.tx.vin?.[0]?.address).toBeNull();
  });

  it('changes nothing for a retried delivery (retries > 0)', async () => {
    const tracker = createBitcoinTxTracker();
    await tracker.ingest(IN_BLOCK_DELIVERY);
    expect(await tracker.ingest({ ...IN_BLOCK_DELIVERY, retries: 1 })).toEqual([]);
    expect(await tracker.ingest(JSON.stringify({ ...IN_BLOCK_DELIVERY, retries: 2 }))).toEqual([]);
  });

  it('ends confirmed when the confirmed delivery overtakes the in-block one, and never moves back', async () => {
    const tracker = createBitcoinTxTracker();
    const txid = txidOf(1);
    expect((await tracker.ingest(CONFIRMED_DELIVERY)).find((c) => c.txid === txid)).toMatchObject({
      from: null,
      to: 'confirmed',
    });
    expect(await tracker.ingest(IN_BLOCK_DELIVERY)).toEqual([]);
    expect(await tracker.ingest(MEMPOOL_DELIVERY)).toEqual([]);
    expect((await tracker.get(txid))?.stage).toBe('confirmed');
  });

  it('lists mempool transactions that never confirmed once they are old enough', async () => {
    let clock = 1_000_000;
    const tracker = createBitcoinTxTracker({ now: () => clock });
    await tracker.ingest(bitcoinDelivery('mempool', [txidOf(1), txidOf(2)]));
    clock += 60_000;
    await tracker.ingest(bitcoinDelivery('mempool', [txidOf(3)]));
    await tracker.ingest(bitcoinDelivery('in-block', [txidOf(2)]));
    clock += 60_000;
    expect((await tracker.listStale({ olderThanMs: 90_000 })).map((r) => r.txid)).toEqual([txidOf(1)]);
    expect((await tracker.listStale({ olderThanMs: 60_000 })).map((r) => r.txid).sort()).toEqual(
      [txidOf(1), txidOf(3)].sort(),
    );
    expect(await tracker.listStale({ olderThanMs: 10 * 60_000 })).toEqual([]);
    const first = await tracker.get(txidOf(1));
    expect(first).toMatchObject({ stage: 'mempool', firstSeenAt: 1_000_000, updatedAt: 1_000_000 });
  });

  it('rejects an invalid payload with a ValidationError and keeps it as a failed delivery', async () => {
    const tracker = createBitcoinTxTracker();
    await expect(tracker.ingest({ ...MEMPOOL_DELIVERY, transactions: [{ vin: [] }] })).rejects.toThrow(
      ValidationError,
    );
    const pending = await tracker.pendingDeliveries();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/transactions\.0\.txid/),
    });
  });

  it('keeps an accepted delivery until it is settled, and as failed when work on it failed', async () => {
    const tracker = createBitcoinTxTracker();
    const accepted = await tracker.accept(MEMPOOL_DELIVERY);
    expect(accepted.stage).toBe('mempool');
    expect(await tracker.pendingDeliveries()).toMatchObject([{ id: accepted.deliveryId, state: 'applied' }]);
    await tracker.settle(accepted.deliveryId, new Error('mailer down'));
    expect(await tracker.pendingDeliveries()).toMatchObject([
      { id: accepted.deliveryId, state: 'failed', error: 'Error: mailer down', payload: MEMPOOL_DELIVERY },
    ]);
    await tracker.settle(accepted.deliveryId);
    expect(await tracker.pendingDeliveries()).toEqual([]);
  });

  it('resumes unsettled deliveries after a restart, oldest first, each with the changes it made', async () => {
    const [a, b, c] = [txidOf(1), txidOf(2), txidOf(3)];
    const store = createMemoryTxStore();
    const crashed = createBitcoinTxTracker({ store });
    await crashed.accept(bitcoinDelivery('mempool', [a, b]));
    // The in-block delivery moved a further before either callback ran: both must still be told.
    await crashed.accept(bitcoinDelivery('in-block', [a]));
    const done = await crashed.accept(bitcoinDelivery('mempool', [c]));
    await crashed.settle(done.deliveryId);
    const failed = await crashed.accept(bitcoinDelivery('confirmed', [b]));
    await crashed.settle(failed.deliveryId, new Error('mailer down'));

    const restarted = createBitcoinTxTracker({ store });
    const resumed = await restarted.resumeDeliveries();
    const short = (changes: TxChange[]) => changes.map((ch) => `${ch.txid.slice(-1)}:${ch.from}>${ch.to}`);
    expect(resumed.map((delivery) => [delivery.stage, short(delivery.changes)])).toEqual([
      ['mempool', ['1:null>mempool', '2:null>mempool']],
      ['in-block', ['1:mempool>in-block']],
      ['confirmed', ['2:mempool>confirmed']],
    ]);
    expect(resumed[0]!.changes[0]!.tx).toEqual(bitcoinDelivery('mempool', [a]).transactions[0]);
    for (const delivery of resumed) await restarted.settle(delivery.deliveryId);
    expect(await restarted.resumeDeliveries()).toEqual([]);
  });

  it('reads the changes back from the records when the store did not keep them', async () => {
    const inner = createMemoryTxStore();
    // A store written before deliveries kept their changes: it ignores them (and has no `advance`).
    const store: TxStore = {
      ...inner,
      advance: undefined,
      updateDelivery: (id, state, error) => inner.updateDelivery!(id, state, error),
    };
    const crashed = createBitcoinTxTracker({ store });
    await crashed.accept(bitcoinDelivery('mempool', [txidOf(1), txidOf(2)]));
    await crashed.accept(bitcoinDelivery('in-block', [txidOf(2)]));
    const resumed = await createBitcoinTxTracker({ store }).resumeDeliveries();
    // The last move of each txid is known; the mempool move of txid 2 was overtaken.
    expect(
      resumed.map((delivery) => delivery.changes.map((ch) => [ch.txid.slice(-1), ch.from, ch.to])),
    ).toEqual([[['1', null, 'mempool']], [['2', 'mempool', 'in-block']]]);
  });

  it('never hands out again a delivery accepted and settled while resumeDeliveries reads the list', async () => {
    const inner = createMemoryTxStore();
    const gate = () => {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { promise, resolve: open };
    };
    const gates = [gate(), gate()];
    let slow = false;
    const store: TxStore = {
      ...inner,
      // A list read over a slow connection: it starts, sees the table, and answers later.
      listDeliveries: async (query) => {
        if (!slow) return inner.listDeliveries!(query);
        await gates[0]!.promise;
        const rows = inner.listDeliveries!(query);
        await gates[1]!.promise;
        return rows;
      },
    };
    const tracker = createBitcoinTxTracker({ store });
    await tracker.recover();
    slow = true;
    const resuming = tracker.resumeDeliveries();
    const accepted = await tracker.accept(MEMPOOL_DELIVERY);
    gates[0]!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    await tracker.settle(accepted.deliveryId);
    gates[1]!.resolve();
    expect(await resuming).toEqual([]);
  });

  it('leaves deliveries that do not parse out of resumeDeliveries, still listed as failed', async () => {
    const tracker = createBitcoinTxTracker();
    await expect(tracker.accept({ ...MEMPOOL_DELIVERY, transactions: [{}] })).rejects.toThrow(
      ValidationError,
    );
    expect(await tracker.resumeDeliveries()).toEqual([]);
    expect(await tracker.pendingDeliveries()).toMatchObject([{ state: 'failed' }]);
  });

  it('keeps the furthest stage when two trackers share one store and race', async () => {
    const store = slowStore();
    const txid = txidOf(1);
    const [confirmedChanges, mempoolChanges] = await Promise.all([
      createBitcoinTxTracker({ store }).ingest(bitcoinDelivery('confirmed', [txid])),
      createBitcoinTxTracker({ store }).ingest(bitcoinDelivery('mempool', [txid])),
    ]);
    expect((await store.get(txid))?.stage).toBe('confirmed');
    expect(confirmedChanges.map((change) => change.to)).toEqual(['confirmed']);
    expect(mempoolChanges).toEqual([]);
  });

  it('works with a store that has only get and put', async () => {
    const inner = createMemoryTxStore();
    const tracker = createBitcoinTxTracker({ store: { get: inner.get, put: inner.put } });
    expect(await tracker.ingest(MEMPOOL_DELIVERY)).toHaveLength(1);
    expect(await tracker.ingest(MEMPOOL_DELIVERY)).toEqual([]);
    expect(await tracker.pendingDeliveries()).toEqual([]);
    await expect(tracker.listStale({ olderThanMs: 0 })).rejects.toThrow(/list\(\)/);
  });

  it('matches the ground truth for any interleaving of deliveries, duplicates and reorderings', async () => {
    const lifecycle = fc.record({
      // Rule 2: a transaction first seen mined skips the mempool step. Rule 3: a mempool one may never confirm.
      start: fc.constantFrom<BitcoinDeliveryStage>('mempool', 'in-block'),
      end: fc.constantFrom<BitcoinDeliveryStage>('mempool', 'in-block', 'confirmed'),
    });
    const scenario = fc.array(lifecycle, { minLength: 1, maxLength: 25 }).chain((txs) => {
      const deliveries: Array<{ stage: BitcoinDeliveryStage; tx: number }> = [];
      txs.forEach(({ start, end }, tx) => {
        const last = Math.max(rank(start), rank(end));
        for (let r = rank(start); r <= last; r++) deliveries.push({ stage: BITCOIN_DELIVERY_STAGES[r]!, tx });
      });
      return fc.record({
        txs: fc.constant(txs),
        // Every delivery 1–3 times (the service retries), in any order; blocks batch several txids.
        order: fc
          .array(fc.integer({ min: 1, max: 3 }), {
            minLength: deliveries.length,
            maxLength: deliveries.length,
          })
          .map((copies) => deliveries.flatMap((d, i) => Array.from({ length: copies[i]! }, () => d)))
          .chain((all) => fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length })),
        batch: fc.integer({ min: 1, max: 4 }),
        concurrent: fc.boolean(),
      });
    });

    await fc.assert(
      fc.asyncProperty(scenario, async ({ txs, order, batch, concurrent }) => {
        const tracker = createBitcoinTxTracker({ store: concurrent ? slowStore() : undefined });
        const payloads: unknown[] = [];
        for (let i = 0; i < order.length; ) {
          const stage = order[i]!.stage;
          const group: number[] = [];
          while (i < order.length && order[i]!.stage === stage && group.length < batch)
            group.push(order[i++]!.tx);
          payloads.push({
            ...bitcoinDelivery(stage, [...new Set(group)].map(txidOf)),
            retries: group.length - 1,
          });
        }
        const results = concurrent
          ? await Promise.all(payloads.map((p) => tracker.ingest(p)))
          : await payloadsInOrder(tracker, payloads);

        const changesOf = new Map<string, TxChange[]>();
        for (const change of results.flat())
          changesOf.set(change.txid, [...(changesOf.get(change.txid) ?? []), change]);

        for (const [index, { start, end }] of txs.entries()) {
          const txid = txidOf(index);
          const truth = rank(end) >= rank(start) ? end : start;
          expect((await tracker.get(txid))?.stage).toBe(truth);
          const changes = changesOf.get(txid) ?? [];
          // Forward only, each stage reported at most once, chained from → to, ending at the truth.
          expect(changes[0]?.from).toBeNull();
          for (let k = 1; k < changes.length; k++) {
            expect(changes[k]!.from).toBe(changes[k - 1]!.to);
            expect(rank(changes[k]!.to)).toBeGreaterThan(rank(changes[k - 1]!.to));
          }
          expect(changes.at(-1)?.to).toBe(truth);
          expect(changes.every((c) => c.stage === c.to)).toBe(true);
        }
        expect(changesOf.size).toBe(txs.length);
      }),
      { numRuns: 300 },
    );
  });

  it('reports every stage exactly once when deliveries arrive in lifecycle order, retries included', async () => {
    const tracker = createBitcoinTxTracker();
    const seen: string[] = [];
    for (const stage of BITCOIN_DELIVERY_STAGES) {
      for (const retries of [0, 1, 2]) {
        for (const change of await tracker.ingest({
          ...bitcoinDelivery(stage, [txidOf(7), txidOf(8)]),
          retries,
        })) {
          seen.push(`${change.txid.slice(-1)}:${change.to}`);
        }
      }
    }
    expect(seen).toEqual([
      '7:mempool',
      '8:mempool',
      '7:in-block',
      '8:in-block',
      '7:confirmed',
      '8:confirmed',
    ]);
  });
});

async function payloadsInOrder(tracker: ReturnType<typeof createBitcoinTxTracker>, payloads: unknown[]) {
  const results: TxChange[][] = [];
  for (const payload of payloads) results.push(await tracker.ingest(payload));
  return results;
}
