/**
 * The `TxStore` contract every durable store keeps, run over each of them (SQLite, PostgreSQL):
 * records and deliveries round-trip, stages only move forward, a delivery written before a crash
 * is applied and one accepted before a crash is handed back with its changes, and trackers on
 * several stores of one database at once report each stage change exactly once with its true
 * `from`. A store is opened the way another process would open it.
 */
import { expect, it } from 'vitest';
import { type BitcoinDeliveryStage, bitcoinStageRank as rank } from '../payloads.js';
import type { TxStore } from '../store.js';
import { createBitcoinTxTracker, type TxChange } from '../tracker.js';
import { bitcoinDelivery, MEMPOOL_DELIVERY, txidOf } from './bitcoin.js';

export interface StoresUnderTest {
  /** A new store on the database of this test, as another process would open it. */
  open(): Promise<TxStore>;
  /** Ends a store without any cleanup: what the other stores see when its process dies. */
  crash(store: TxStore): Promise<void>;
  /** Closes every store still open. */
  closeAll(): Promise<void>;
}

/** Registers the contract's tests; `database()` gives each test a database of its own. */
export function txStoreContract(database: () => Promise<StoresUnderTest>): void {
  const test = (name: string, body: (db: StoresUnderTest) => Promise<void>, timeout?: number) =>
    it(
      name,
      async () => {
        const db = await database();
        try {
          await body(db);
        } finally {
          await db.closeAll();
        }
      },
      timeout,
    );

  test('stores records that round-trip, and never moves a stage backwards', async (db) => {
    const store = await db.open();
    const record = {
      txid: txidOf(9),
      stage: 'in-block' as const,
      tx: MEMPOOL_DELIVERY.transactions[0]!,
      block: { height: '870000', hash: 'abc' },
      streamId: 's',
      firstSeenAt: 5,
      updatedAt: 6,
    };
    expect(await store.put(record)).not.toBe(false);
    expect(await store.get(txidOf(9))).toEqual(record);
    expect(await store.get(txidOf(10))).toBeUndefined();
    expect(await store.list!({ stage: 'in-block' })).toEqual([record]);
    expect(await store.list!({ stage: 'mempool' })).toEqual([]);
    expect(await store.list!({})).toEqual([record]);
    expect(await store.put({ ...record, stage: 'mempool', updatedAt: 7 })).toBe(false);
    expect(await store.put({ ...record, updatedAt: 7 })).toBe(false);
    expect(await store.get(txidOf(9))).toEqual(record);
    expect(await store.put({ ...record, stage: 'confirmed', updatedAt: 8 })).toBe(true);
    expect((await store.get(txidOf(9)))?.stage).toBe('confirmed');
  });

  test('stores deliveries that round-trip: the raw text, the state, the error, the changes', async (db) => {
    const store = await db.open();
    const id = String(await store.saveDelivery!('{"raw":true,"amount":0.00000001}', 7));
    expect(await store.listDeliveries!()).toEqual([
      { id, receivedAt: 7, state: 'received', payload: { raw: true, amount: 1e-8 } },
    ]);
    const changes = [{ txid: txidOf(1), from: null, to: 'mempool' as const }];
    await store.updateDelivery!(id, 'applied', undefined, changes);
    await store.updateDelivery!(id, 'failed', 'boom');
    expect(await store.listDeliveries!()).toEqual([
      { id, receivedAt: 7, state: 'failed', error: 'boom', payload: { raw: true, amount: 1e-8 }, changes },
    ]);
    expect(await store.listDeliveries!({ state: 'applied' })).toEqual([]);
    const second = String(await store.saveDelivery!({ parsed: 'ü' }, 8));
    expect((await store.listDeliveries!()).map((delivery) => delivery.id)).toEqual([id, second]);
    await store.deleteDelivery!(id);
    expect(await store.listDeliveries!()).toMatchObject([{ id: second, payload: { parsed: 'ü' } }]);
  });

  test('advance marks a delivery applied with its moves, and keeps the moves of one applied already', async (db) => {
    const store = await db.open();
    const txid = txidOf(11);
    const record = (stage: BitcoinDeliveryStage) => ({
      txid,
      stage,
      tx: bitcoinDelivery(stage, [txid]).transactions[0]!,
      block: { height: '870000', hash: 'h' },
      streamId: 's',
      firstSeenAt: 3,
      updatedAt: 3,
    });
    const id = String(await store.saveDelivery!(bitcoinDelivery('mempool', [txid]), 3));
    expect(await store.advance!([record('mempool')], id)).toEqual([{ txid, from: null, to: 'mempool' }]);
    expect(await store.listDeliveries!()).toMatchObject([
      { id, state: 'applied', changes: [{ txid, from: null, to: 'mempool' }] },
    ]);
    // Applied again (an attempt whose answer was lost, or a receiver that took it over while the
    // first one's move was under way): nothing moves again, and every run is told the first moves —
    // whichever run's callback commits carries them.
    expect(await store.advance!([record('mempool')], id)).toEqual([{ txid, from: null, to: 'mempool' }]);
    expect(await store.listDeliveries!()).toMatchObject([
      { id, changes: [{ txid, from: null, to: 'mempool' }] },
    ]);
    expect(await store.get(txid)).toMatchObject({ stage: 'mempool', firstSeenAt: 3, previousStage: null });
  });

  test('keeps the furthest stage when two trackers on two stores race', async (db) => {
    const [first, second] = [await db.open(), await db.open()];
    const txid = txidOf(1);
    const [confirmedChanges, mempoolChanges] = await Promise.all([
      createBitcoinTxTracker({ store: first }).ingest(bitcoinDelivery('confirmed', [txid])),
      createBitcoinTxTracker({ store: second }).ingest(bitcoinDelivery('mempool', [txid])),
    ]);
    expect((await first.get(txid))?.stage).toBe('confirmed');
    expect((await second.get(txid))?.stage).toBe('confirmed');
    expect(confirmedChanges.map((change) => change.to)).toEqual(['confirmed']);
    // Either order is possible; the mempool delivery is reported only if it came first.
    if (mempoolChanges.length > 0) {
      expect(mempoolChanges.map((c) => [c.from, c.to])).toEqual([[null, 'mempool']]);
      expect(confirmedChanges[0]!.from).toBe('mempool');
    } else {
      expect(confirmedChanges[0]!.from).toBeNull();
    }
  });

  test('hands back a delivery accepted just before a crash, with its changes, until settled', async (db) => {
    const crashed = await db.open();
    await createBitcoinTxTracker({ store: crashed }).accept(MEMPOOL_DELIVERY);
    await db.crash(crashed);

    const store = await db.open();
    const tracker = createBitcoinTxTracker({ store });
    expect((await tracker.get(txidOf(1)))?.stage).toBe('mempool');
    const resumed = await tracker.resumeDeliveries();
    expect(resumed.map((d) => d.changes.map((c) => [c.txid, c.from, c.to]))).toEqual([
      [[txidOf(1), null, 'mempool']],
    ]);
    expect(await tracker.pendingDeliveries()).toMatchObject([
      { state: 'applied', payload: MEMPOOL_DELIVERY },
    ]);
    // Being handled here: not handed out a second time.
    expect(await tracker.resumeDeliveries()).toEqual([]);
    await tracker.settle(resumed[0]!.deliveryId);
    expect(await tracker.pendingDeliveries()).toEqual([]);
  });

  test('applies a delivery written just before a crash when another tracker starts', async (db) => {
    const crashed = await db.open();
    await crashed.saveDelivery!(MEMPOOL_DELIVERY, Date.now());
    await db.crash(crashed);

    const store = await db.open();
    expect(await store.get(txidOf(1))).toBeUndefined();
    const tracker = createBitcoinTxTracker({ store });
    const recovered = await tracker.recover();
    expect(recovered.map((c) => [c.txid, c.from, c.to])).toEqual([[txidOf(1), null, 'mempool']]);
    const pending = await tracker.pendingDeliveries();
    expect(pending).toMatchObject([{ state: 'applied', payload: MEMPOOL_DELIVERY }]);
    expect(await tracker.ingest(MEMPOOL_DELIVERY)).toEqual([]);
    const resumed = await tracker.resumeDeliveries();
    expect(resumed.map((d) => d.changes.map((c) => c.to))).toEqual([['mempool']]);
    await tracker.settle(resumed[0]!.deliveryId);
    expect(await tracker.pendingDeliveries()).toEqual([]);
  });

  test('reports each stage change exactly once, with its true `from`, when six trackers get every delivery at once', async (db) => {
    const stores = await Promise.all(Array.from({ length: 6 }, () => db.open()));
    const trackers = stores.map((store) => createBitcoinTxTracker({ store }));
    // 30 transactions in groups of 3, each group through its stages, a confirmed delivery of a
    // group sometimes before its in-block one; every delivery goes to every tracker at once.
    const groups = Array.from({ length: 10 }, (_, g) => [0, 1, 2].map((i) => txidOf(100 + g * 3 + i)));
    const waves = groups.flatMap((group, g) => {
      const stages: BitcoinDeliveryStage[] =
        g % 3 === 0 ? ['mempool', 'confirmed', 'in-block'] : ['mempool', 'in-block', 'confirmed'];
      return stages.map((stage) => bitcoinDelivery(stage, group, 0));
    });
    const changes: TxChange[] = [];
    for (let start = 0; start < waves.length; start += 5) {
      const wave = waves.slice(start, start + 5);
      const results = await Promise.all(
        // Each tracker takes the wave in another order: one applies a confirmed delivery while
        // another applies the in-block one of the same transactions.
        trackers.flatMap((tracker, t) =>
          wave.map((_, w) => tracker.ingest({ ...wave[(w + t) % wave.length]!, retries: (w + t) % 3 })),
        ),
      );
      changes.push(...results.flat());
    }
    for (const txid of groups.flat()) {
      // Whatever order the deliveries hit the database in: a forward chain from null to confirmed,
      // each link told once, each `from` the stage the link before it reached.
      const told = changes.filter((c) => c.txid === txid).sort((a, b) => rank(a.to) - rank(b.to));
      expect(told[0]?.from, txid).toBeNull();
      for (let k = 1; k < told.length; k++) {
        expect(told[k]!.from, txid).toBe(told[k - 1]!.to);
        expect(rank(told[k]!.to), txid).toBeGreaterThan(rank(told[k - 1]!.to));
      }
      expect(told.at(-1)?.to, txid).toBe('confirmed');
      expect((await stores[0]!.get(txid))?.stage).toBe('confirmed');
    }
    expect(changes.length).toBeGreaterThanOrEqual(groups.flat().length);
    for (const tracker of trackers) expect(await tracker.pendingDeliveries()).toEqual([]);
  }, 60_000);
}
