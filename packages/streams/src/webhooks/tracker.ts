import { runtimeValidationPaths } from '@blockwire/core/internal';
import { checkOptionsObject } from '@blockwire/core/operations';
import {
  type BitcoinDeliveryStage,
  type BitcoinTransaction,
  type BitcoinWebhook,
  bitcoinDeliveryStage,
  parseBitcoinWebhookWith,
  bitcoinStageRank as rank,
} from './payloads.js';
import {
  createMemoryTxStore,
  type RecordedChange,
  type StoredDelivery,
  type TxRecord,
  type TxStore,
} from './store.js';

/** One transaction moving forward in its lifecycle. */
export interface TxChange {
  txid: string;
  /** The stage before this delivery; `null` the first time the txid is seen. */
  from: BitcoinDeliveryStage | null;
  to: BitcoinDeliveryStage;
  /** The stage the transaction is in now (always equal to `to`), handy for `switch`. */
  stage: BitcoinDeliveryStage;
  tx: BitcoinTransaction;
}

export interface BitcoinTxTrackerOptions {
  /** Where state is kept; in memory when omitted. `createSqliteTxStore(path)` survives restarts. */
  store?: TxStore;
  /** The clock, in milliseconds since the epoch (tests pass a fake one). */
  now?: () => number;
}

export interface AcceptedDelivery {
  /** Id of the stored raw delivery, when the store keeps deliveries. */
  deliveryId: string | undefined;
  payload: BitcoinWebhook;
  stage: BitcoinDeliveryStage;
  changes: TxChange[];
}

export interface BitcoinTxTracker {
  /**
   * Applies one Bitcoin delivery: upsert by txid, stages only move forward, a delivery seen twice
   * changes nothing. Returns what changed. The raw delivery is written to the store before anything
   * else, and removed once applied.
   */
  ingest(payload: unknown): Promise<TxChange[]>;
  /** Like `ingest`, but keeps the stored delivery until `settle(deliveryId)`: for work that follows. */
  accept(payload: unknown): Promise<AcceptedDelivery>;
  /** Ends a delivery from `accept`: removes it, or with an error keeps it as `failed` for reprocessing. */
  settle(deliveryId: string | undefined, error?: unknown): Promise<void>;
  /** The transaction's record, or `undefined` if no delivery named it. */
  get(txid: string): Promise<TxRecord | undefined>;
  /** Mempool transactions first seen at least `olderThanMs` ago that never reached a block. */
  listStale(options: { olderThanMs: number }): Promise<TxRecord[]>;
  /** Deliveries kept by the store that still need work: `failed` ones, and any left by a crash. */
  pendingDeliveries(): Promise<StoredDelivery[]>;
  /**
   * Re-applies deliveries a crash left un-applied (runs by itself before the first ingest and
   * before `pendingDeliveries`); they stay listed as `applied` until settled, since their callbacks never ran.
   */
  recover(): Promise<TxChange[]>;
  /**
   * The deliveries whose work never finished — left by a crash (the process died before `settle`)
   * or `failed` — as `accept` returned them, oldest first: each with the changes it made, even
   * when a crash came between applying it and its callback. Deliveries whose payload does not
   * parse are left out (they stay listed by `pendingDeliveries()`). Call it before accepting new
   * deliveries, and `settle` each one when its work is done; `createWebhookHandler` does both
   * when it starts. Deliveries this tracker is handling (accepted or resumed, not yet settled) are
   * left out, so calling it again later is safe: it then returns the `failed` ones again, and
   * those a store shared by processes took over from a process that died since.
   */
  resumeDeliveries(): Promise<AcceptedDelivery[]>;
}

const recorded = (changes: TxChange[]): RecordedChange[] =>
  changes.map(({ txid, from, to }) => ({ txid, from, to }));

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Tracks every Bitcoin transaction of a stream through mempool → in-block → confirmed. */
export function createBitcoinTxTracker(options: BitcoinTxTrackerOptions = {}): BitcoinTxTracker {
  checkOptionsObject(options, {
    subject: 'createBitcoinTxTracker options',
    kind: 'option',
    names: Object.keys({ store: true, now: true } satisfies Record<keyof BitcoinTxTrackerOptions, true>),
    example: '{ store }',
  });
  const store = options.store ?? createMemoryTxStore();
  const now = options.now ?? Date.now;
  // Deliveries are applied one at a time: with an async store, two concurrent read-then-write
  // updates of the same txid could otherwise move it backwards. A store with `advance` orders the
  // moves itself, so deliveries are applied concurrently there (recover and resume still queue).
  let queue: Promise<unknown> = Promise.resolve();
  let recovered: Promise<TxChange[]> | undefined;
  /** Deliveries accepted or resumed here and not settled yet: `resumeDeliveries` leaves them to their work. */
  const handling = new Set<string>();
  /** Deliveries being written: once written, they are `handling`. */
  const saving = new Set<Promise<unknown>>();
  /** For each `resumeDeliveries` under way: every delivery handled here since it began. */
  const watching = new Set<Set<string>>();
  function startHandling(id: string): void {
    handling.add(id);
    for (const seen of watching) seen.add(id);
  }

  function serially<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Applies a delivery to the records. With a store that has `advance`, the store does it in one
   * atomic step that also marks the delivery `applied`; otherwise `markApplied` must follow.
   */
  function apply(payload: BitcoinWebhook, at: number, deliveryId: string | undefined): Promise<TxChange[]> {
    return store.advance ? advance(payload, at, deliveryId) : readThenWrite(payload, at, deliveryId);
  }

  async function markApplied(deliveryId: string | undefined, changes: TxChange[]): Promise<void> {
    if (deliveryId === undefined || store.advance) return;
    await store.updateDelivery?.(deliveryId, 'applied', undefined, recorded(changes));
  }

  async function advance(
    payload: BitcoinWebhook,
    at: number,
    deliveryId: string | undefined,
  ): Promise<TxChange[]> {
    const stage = bitcoinDeliveryStage(payload);
    const block = { height: String(payload.block.height), hash: payload.block.hash };
    const txs = new Map<string, BitcoinTransaction>();
    for (const tx of payload.transactions) if (!txs.has(tx.txid)) txs.set(tx.txid, tx);
    const records: TxRecord[] = [...txs.values()].map((tx) => ({
      txid: tx.txid,
      stage,
      tx,
      block,
      streamId: payload.streamId,
      firstSeenAt: at,
      updatedAt: at,
      ...(deliveryId === undefined ? {} : { deliveryId }),
    }));
    const moves = new Map((await store.advance!(records, deliveryId)).map((move) => [move.txid, move]));
    // In the payload's order, as the read-then-write path reports them.
    return [...txs.values()].flatMap((tx) => {
      const move = moves.get(tx.txid);
      return move ? [{ txid: tx.txid, from: move.from, to: move.to, stage: move.to, tx }] : [];
    });
  }

  async function readThenWrite(
    payload: BitcoinWebhook,
    at: number,
    deliveryId: string | undefined,
  ): Promise<TxChange[]> {
    const stage = bitcoinDeliveryStage(payload);
    const block = { height: String(payload.block.height), hash: payload.block.hash };
    const changes: TxChange[] = [];
    for (const tx of payload.transactions) {
      const known = await store.get(tx.txid);
      if (known && rank(known.stage) >= rank(stage)) continue;
      const stored = await store.put({
        txid: tx.txid,
        stage,
        tx,
        block,
        streamId: payload.streamId,
        firstSeenAt: known?.firstSeenAt ?? at,
        updatedAt: at,
        // Which delivery made this move: after a crash its changes can be told again (resumeDeliveries).
        ...(deliveryId === undefined ? {} : { deliveryId, previousStage: known?.stage ?? null }),
      });
      // Another tracker on the same store moved it as far or further since our read.
      if (stored === false) continue;
      changes.push({ txid: tx.txid, from: known?.stage ?? null, to: stage, stage, tx });
    }
    return changes;
  }

  async function save(raw: unknown, at: number): Promise<string | undefined> {
    if (!store.saveDelivery) return undefined;
    const saved = Promise.resolve(store.saveDelivery(raw, at)).then((id) => {
      startHandling(id);
      return id;
    });
    saving.add(saved);
    try {
      return await saved;
    } finally {
      saving.delete(saved);
    }
  }

  async function acceptNow(raw: unknown): Promise<AcceptedDelivery> {
    const at = now();
    const deliveryId = await save(raw, at);
    let payload: BitcoinWebhook;
    let changes: TxChange[];
    let stage: BitcoinDeliveryStage;
    try {
      payload = parseBitcoinWebhookWith(raw, runtimeValidationPaths());
      stage = bitcoinDeliveryStage(payload);
      changes = await apply(payload, at, deliveryId);
    } catch (error) {
      if (deliveryId !== undefined) {
        handling.delete(deliveryId);
        await store.updateDelivery?.(deliveryId, 'failed', errorText(error));
      }
      throw error;
    }
    try {
      await markApplied(deliveryId, changes);
    } catch (error) {
      if (deliveryId !== undefined) handling.delete(deliveryId);
      throw error;
    }
    return { deliveryId, payload, stage, changes };
  }

  /**
   * Applies a delivery a crash left written but not applied (here, or in a process that died, with
   * a store shared by processes); `undefined` when it cannot be applied (then it is marked failed).
   * Applied now, but the work that follows a delivery (your callback) never ran: it stays kept
   * for pendingDeliveries(). The redelivery the service sends changes nothing any more.
   */
  async function reapply(delivery: StoredDelivery): Promise<TxChange[] | undefined> {
    try {
      const changes = await apply(
        parseBitcoinWebhookWith(delivery.payload, runtimeValidationPaths()),
        delivery.receivedAt,
        delivery.id,
      );
      await markApplied(delivery.id, changes);
      return changes;
    } catch (error) {
      await store.updateDelivery?.(delivery.id, 'failed', errorText(error));
      return undefined;
    }
  }

  function recover(): Promise<TxChange[]> {
    recovered ??= serially(async () => {
      const changes: TxChange[] = [];
      for (const delivery of (await store.listDeliveries?.({ state: 'received' })) ?? []) {
        changes.push(...((await reapply(delivery)) ?? []));
      }
      return changes;
    }).catch((error: unknown) => {
      recovered = undefined; // try again on the next call
      throw error;
    });
    return recovered;
  }

  /**
   * What a stored delivery moved: the changes stored with it, and the moves its records still show
   * (a crash between applying it and storing its changes leaves only those).
   */
  async function changesMadeBy(delivery: StoredDelivery, payload: BitcoinWebhook): Promise<TxChange[]> {
    const txOf = new Map(payload.transactions.map((tx) => [tx.txid, tx]));
    const changes: TxChange[] = [];
    for (const { txid, from, to } of delivery.changes ?? []) {
      const tx = txOf.get(txid);
      if (tx) changes.push({ txid, from, to, stage: to, tx });
    }
    for (const tx of payload.transactions) {
      if (changes.some((change) => change.txid === tx.txid)) continue;
      const record = await store.get(tx.txid);
      if (record?.deliveryId !== delivery.id) continue;
      const { stage, previousStage } = record;
      changes.push({ txid: tx.txid, from: previousStage ?? null, to: stage, stage, tx });
    }
    return changes;
  }

  async function resumeDeliveries(): Promise<AcceptedDelivery[]> {
    await recover();
    return serially(async () => {
      const resumed: AcceptedDelivery[] = [];
      // Every delivery handled here while the list is read — even one accepted and settled in the
      // meantime, which the list may still show — is left to its own work.
      const seen = new Set(handling);
      watching.add(seen);
      let kept: StoredDelivery[];
      try {
        kept = (await store.listDeliveries?.()) ?? [];
        // A delivery listed while its accept was still writing it is seen once written.
        await Promise.allSettled([...saving]);
      } finally {
        watching.delete(seen);
      }
      for (const delivery of kept) {
        if (seen.has(delivery.id) || handling.has(delivery.id)) continue;
        let payload: BitcoinWebhook;
        try {
          payload = parseBitcoinWebhookWith(delivery.payload, runtimeValidationPaths());
        } catch {
          continue; // reported when it arrived; it stays `failed` for inspection
        }
        let current = delivery;
        if (delivery.state === 'received') {
          // Taken over since recover() ran: from a process on the same store that died before applying it.
          const applied = await reapply(delivery);
          if (applied === undefined) continue;
          current = { ...delivery, state: 'applied', changes: recorded(applied) };
        }
        startHandling(delivery.id);
        resumed.push({
          deliveryId: delivery.id,
          payload,
          stage: bitcoinDeliveryStage(payload),
          changes: await changesMadeBy(current, payload),
        });
      }
      return resumed;
    });
  }

  async function settle(deliveryId: string | undefined, error?: unknown): Promise<void> {
    if (deliveryId === undefined) return;
    try {
      if (error === undefined) await store.deleteDelivery?.(deliveryId);
      else await store.updateDelivery?.(deliveryId, 'failed', errorText(error));
    } finally {
      handling.delete(deliveryId);
    }
  }

  const tracker: BitcoinTxTracker = {
    async accept(payload) {
      await recover();
      return store.advance ? acceptNow(payload) : serially(() => acceptNow(payload));
    },
    async ingest(payload) {
      const accepted = await tracker.accept(payload);
      await settle(accepted.deliveryId);
      return accepted.changes;
    },
    settle,
    async get(txid) {
      return store.get(txid);
    },
    async listStale({ olderThanMs }) {
      if (!store.list) throw new TypeError('listStale needs a TxStore with a list() method');
      const cutoff = now() - olderThanMs;
      return (await store.list({ stage: 'mempool' })).filter((record) => record.firstSeenAt <= cutoff);
    },
    async pendingDeliveries() {
      // Apply what a crash left unapplied first: settling a `received` delivery would drop it.
      await recover();
      return (await store.listDeliveries?.()) ?? [];
    },
    recover,
    resumeDeliveries,
  };
  return tracker;
}
