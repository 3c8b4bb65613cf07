import { BITCOIN_DELIVERY_STAGES, type BitcoinDeliveryStage, type BitcoinTransaction } from './payloads.js';

const stageRank = (stage: BitcoinDeliveryStage) => BITCOIN_DELIVERY_STAGES.indexOf(stage);

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
  listDeliveries?(query?: { state?: StoredDelivery['state'] }): Awaitable<StoredDelivery[]>;
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
