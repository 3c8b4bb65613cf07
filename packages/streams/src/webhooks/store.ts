import {
  type BitcoinDeliveryStage,
  type BitcoinTransaction,
  bitcoinStageRank as stageRank,
} from './payloads.js';

export type Awaitable<T> = T | Promise<T>;

/** What the tracker knows about one transaction. */
export interface TxRecord {
  txid: string;
  stage: BitcoinDeliveryStage;
  /** The transaction as the delivery that moved it to `stage` described it. */
  tx: BitcoinTransaction;
  /** The block of that delivery (`{ height: '0', hash: 'mempool' }` while pending). */
  block: { height: string; hash: string };
  streamId: string;
  /** Milliseconds since the epoch (the tracker's clock) of the first delivery for this txid. */
  firstSeenAt: number;
  /** Milliseconds since the epoch of the last forward move. */
  updatedAt: number;
  /** The stored delivery that made the last forward move (when the store keeps deliveries). */
  deliveryId?: string;
  /** The stage before that move; `null` when it was the first delivery naming the txid. */
  previousStage?: BitcoinDeliveryStage | null;
}

/** One forward move a delivery made, as the store keeps it (the `TxChange` without its `tx`). */
export interface RecordedChange {
  txid: string;
  from: BitcoinDeliveryStage | null;
  to: BitcoinDeliveryStage;
}

/** A delivery kept by the store until it has been fully handled. */
export interface StoredDelivery {
  id: string;
  receivedAt: number;
  payload: unknown;
  /** `received`: written, not yet applied to the tx records. `applied`: tx records updated, callbacks pending or running. `failed`: a callback (or parsing) failed; reprocess it. */
  state: 'received' | 'applied' | 'failed';
  error?: string;
  /** What applying it moved forward, once `applied` (if the store keeps it). */
  changes?: RecordedChange[];
}

/**
 * Where the tracker keeps its state. Only `get` and `put` are required; `list` enables
 * `listStale`, and the delivery methods let a store keep every raw delivery until it is handled
 * (the SQLite store does, durably), so a crash after answering 200 loses nothing.
 */
export interface TxStore {
  get(txid: string): Awaitable<TxRecord | undefined>;
  /**
   * Upserts by txid. A store shared by several trackers (processes, connections) should refuse to
   * move a record's stage backwards and answer `false` then; the built-in stores do.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores written for `void` must keep type-checking
  put(record: TxRecord): Awaitable<void | boolean>;
  /**
   * Optional, for a store shared by live processes: moves each record forward in one atomic step
   * of the store — only when its stored stage is behind, or it is new — keeping the stored
   * `firstSeenAt` and setting `previousStage` to the stage it replaced; with `deliveryId`, it marks
   * that delivery `applied` with these moves in the same step. Resolves to the moves made, each
   * `from` the stage it really replaced. A delivery applied already (it has `changes`: an earlier
   * attempt whose answer was lost, or another process that took it over) moves nothing and
   * resolves to the moves stored with it, so every run of its callback is told the same changes. With only `get` and `put`, another process can move a
   * record between the two, so `from` would be a stale read and a crash between `put` and
   * `updateDelivery` would leave the move untold; the tracker uses `advance` when a store has it.
   */
  advance?(records: TxRecord[], deliveryId?: string): Awaitable<RecordedChange[]>;
  list?(query: { stage?: BitcoinDeliveryStage }): Awaitable<TxRecord[]>;
  saveDelivery?(payload: unknown, receivedAt: number): Awaitable<string>;
  /** `changes` comes with the move to `applied`; an update without it keeps the changes stored. */
  updateDelivery?(
    id: string,
    state: StoredDelivery['state'],
    error?: string,
    changes?: RecordedChange[],
  ): Awaitable<void>;
  deleteDelivery?(id: string): Awaitable<void>;
  /**
   * The deliveries kept, oldest first. A store shared by live processes lists only those of this
   * store instance, and those it took over from processes that died (the PostgreSQL store does).
   */
  listDeliveries?(query?: { state?: StoredDelivery['state'] }): Awaitable<StoredDelivery[]>;
}

/**
 * The moves of `advance`, for a store that runs it all at once (synchronously, or in one
 * transaction): each record that is new or further than the stored one is written, keeping the
 * stored `firstSeenAt` and noting the stage it replaced.
 */
export function advanceRecords(
  batch: TxRecord[],
  deliveryId: string | undefined,
  read: (txid: string) => TxRecord | undefined,
  write: (record: TxRecord) => void,
): RecordedChange[] {
  const moves: RecordedChange[] = [];
  for (const record of batch) {
    const known = read(record.txid);
    if (known && stageRank(known.stage) >= stageRank(record.stage)) continue;
    const from = known?.stage ?? null;
    const { deliveryId: _ignored, previousStage: _replaced, ...fields } = record;
    write({
      ...fields,
      firstSeenAt: known?.firstSeenAt ?? record.firstSeenAt,
      // Which delivery made the move, and from where: what a resume reads back after a crash.
      ...(deliveryId === undefined ? {} : { deliveryId, previousStage: from }),
    });
    moves.push({ txid: record.txid, from, to: record.stage });
  }
  return moves;
}

/** A `TxStore` in memory: the default. State is lost when the process ends. */
export function createMemoryTxStore(): TxStore {
  const records = new Map<string, TxRecord>();
  const deliveries = new Map<string, StoredDelivery>();
  let nextId = 1;
  return {
    get: (txid) => {
      const record = records.get(txid);
      return record && structuredClone(record);
    },
    put: (record) => {
      const known = records.get(record.txid);
      if (known && stageRank(known.stage) >= stageRank(record.stage)) return false;
      records.set(record.txid, structuredClone(record));
      return true;
    },
    advance: (batch, deliveryId) => {
      const delivery = deliveryId === undefined ? undefined : deliveries.get(deliveryId);
      if (delivery?.changes) return structuredClone(delivery.changes);
      const moves = advanceRecords(
        batch,
        deliveryId,
        (txid) => records.get(txid),
        (record) => {
          records.set(record.txid, structuredClone(record));
        },
      );
      if (delivery) {
        const { error: _error, ...kept } = delivery;
        deliveries.set(delivery.id, { ...kept, state: 'applied', changes: structuredClone(moves) });
      }
      return moves;
    },
    list: ({ stage }) => [...records.values()].filter((r) => stage === undefined || r.stage === stage),
    saveDelivery: (payload, receivedAt) => {
      const id = String(nextId++);
      deliveries.set(id, { id, receivedAt, payload, state: 'received' });
      return id;
    },
    updateDelivery: (id, state, error, changes) => {
      const delivery = deliveries.get(id);
      if (!delivery) return;
      deliveries.set(id, {
        ...delivery,
        state,
        ...(error === undefined ? {} : { error }),
        ...(changes === undefined ? {} : { changes: structuredClone(changes) }),
      });
    },
    deleteDelivery: (id) => {
      deliveries.delete(id);
    },
    listDeliveries: (query = {}) =>
      [...deliveries.values()].filter((d) => query.state === undefined || d.state === query.state),
  };
}

/** A `bitcoin_deliveries` row (the same columns in the SQLite and PostgreSQL stores) as a `StoredDelivery`. */
export const deliveryFromRow = (row: Record<string, unknown>): StoredDelivery => ({
  id: String(row.id),
  receivedAt: Number(row.received_at),
  state: row.state as StoredDelivery['state'],
  payload: JSON.parse(String(row.payload)),
  ...(row.error == null ? {} : { error: String(row.error) }),
  ...(row.changes == null ? {} : { changes: JSON.parse(String(row.changes)) as RecordedChange[] }),
});
