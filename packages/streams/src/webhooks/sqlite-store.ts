import type { DatabaseSync } from 'node:sqlite';
import { rawTextOf } from './body.js';
import { type BitcoinDeliveryStage, bitcoinStageRankSql as RANK } from './payloads.js';
import {
  advanceRecords,
  deliveryFromRow,
  type RecordedChange,
  type StoredDelivery,
  type TxRecord,
  type TxStore,
} from './store.js';

/** The SQLite store: every method is synchronous (node:sqlite is), so it can also be read directly. */
export interface SqliteTxStore extends TxStore {
  get(txid: string): TxRecord | undefined;
  /** `false` when the stored stage is already as far (another tracker on the same file got there first). */
  put(record: TxRecord): boolean;
  /** In one `BEGIN IMMEDIATE` transaction: atomic against every other connection to the file. */
  advance(records: TxRecord[], deliveryId?: string): RecordedChange[];
  list(query: { stage?: BitcoinDeliveryStage }): TxRecord[];
  saveDelivery(payload: unknown, receivedAt: number): string;
  updateDelivery(
    id: string,
    state: StoredDelivery['state'],
    error?: string,
    changes?: RecordedChange[],
  ): void;
  deleteDelivery(id: string): void;
  listDeliveries(query?: { state?: StoredDelivery['state'] }): StoredDelivery[];
  /** Closes the database file. */
  close(): void;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bitcoin_txs (
    txid TEXT PRIMARY KEY,
    stage TEXT NOT NULL,
    first_seen_at INTEGER NOT NULL,
    record TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS bitcoin_txs_stage ON bitcoin_txs (stage, first_seen_at);
  CREATE TABLE IF NOT EXISTS bitcoin_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    received_at INTEGER NOT NULL,
    state TEXT NOT NULL,
    error TEXT,
    payload TEXT NOT NULL,
    changes TEXT
  );
`;

type Row = Record<string, unknown>;

/**
 * A `TxStore` in an SQLite file, on Node's built-in `node:sqlite` (no native addon). Every raw
 * delivery is written (WAL, `synchronous = FULL`) before `ingest` applies it, so a crash after
 * answering 200 loses nothing: reopen the same file and the tracker resumes, re-applying what was
 * not applied and keeping what was not handled.
 */
export function createSqliteTxStore(path: string): SqliteTxStore {
  // Loaded here, not at the top, so importing the package never needs node:sqlite.
  const sqlite = process.getBuiltinModule?.('node:sqlite') as typeof import('node:sqlite') | undefined;
  if (!sqlite) {
    throw new Error(
      `createSqliteTxStore needs Node's built-in node:sqlite (Node >= 22.13); this is Node ${process.versions.node}`,
    );
  }
  const { DatabaseSync: Database } = sqlite;
  const db: DatabaseSync = new Database(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
  db.exec(SCHEMA);
  // Files written by an earlier version lack the column.
  const columns = db.prepare('PRAGMA table_info(bitcoin_deliveries)').all() as Row[];
  if (!columns.some((column) => column.name === 'changes')) {
    db.exec('ALTER TABLE bitcoin_deliveries ADD COLUMN changes TEXT');
  }

  const getTx = db.prepare('SELECT record FROM bitcoin_txs WHERE txid = ?');
  // Forward only: trackers on several connections to one file never move a record backwards.
  const putTx = db.prepare(
    `INSERT INTO bitcoin_txs (txid, stage, first_seen_at, record) VALUES (?, ?, ?, ?)
     ON CONFLICT (txid) DO UPDATE SET stage = excluded.stage, first_seen_at = excluded.first_seen_at, record = excluded.record
     WHERE ${RANK('excluded.stage')} > ${RANK('bitcoin_txs.stage')}`,
  );
  const listAll = db.prepare('SELECT record FROM bitcoin_txs ORDER BY first_seen_at');
  const listByStage = db.prepare('SELECT record FROM bitcoin_txs WHERE stage = ? ORDER BY first_seen_at');
  const saveDelivery = db.prepare(
    "INSERT INTO bitcoin_deliveries (received_at, state, payload) VALUES (?, 'received', ?)",
  );
  const updateDelivery = db.prepare(
    'UPDATE bitcoin_deliveries SET state = ?, error = ?, changes = COALESCE(?, changes) WHERE id = ?',
  );
  const deleteDelivery = db.prepare('DELETE FROM bitcoin_deliveries WHERE id = ?');
  const markApplied = db.prepare(
    "UPDATE bitcoin_deliveries SET state = 'applied', error = NULL, changes = ? WHERE id = ?",
  );
  const changesOf = db.prepare('SELECT changes FROM bitcoin_deliveries WHERE id = ?');
  const listDeliveries = db.prepare('SELECT * FROM bitcoin_deliveries ORDER BY id');
  const listDeliveriesIn = db.prepare('SELECT * FROM bitcoin_deliveries WHERE state = ? ORDER BY id');

  const toRecord = (row: Row | undefined) => (row ? (JSON.parse(String(row.record)) as TxRecord) : undefined);

  return {
    get: (txid: string) => toRecord(getTx.get(txid)),
    put: (record: TxRecord) =>
      Number(putTx.run(record.txid, record.stage, record.firstSeenAt, JSON.stringify(record)).changes) > 0,
    advance: (records: TxRecord[], deliveryId?: string) => {
      // IMMEDIATE takes the write lock first: no other connection writes between a read and its write.
      db.exec('BEGIN IMMEDIATE');
      try {
        const made = deliveryId === undefined ? undefined : changesOf.get(Number(deliveryId))?.changes;
        if (typeof made === 'string') {
          // Applied already: the moves it made then.
          db.exec('COMMIT');
          return JSON.parse(made) as RecordedChange[];
        }
        const moves = advanceRecords(
          records,
          deliveryId,
          (txid) => toRecord(getTx.get(txid)),
          (record) => putTx.run(record.txid, record.stage, record.firstSeenAt, JSON.stringify(record)),
        );
        if (deliveryId !== undefined) markApplied.run(JSON.stringify(moves), Number(deliveryId));
        db.exec('COMMIT');
        return moves;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    list: ({ stage }: { stage?: BitcoinDeliveryStage }) =>
      (stage === undefined ? listAll.all() : listByStage.all(stage)).map((row) => toRecord(row)!),
    saveDelivery: (payload: unknown, receivedAt: number) => {
      const text = rawTextOf(payload) ?? JSON.stringify(payload);
      return String(saveDelivery.run(receivedAt, text).lastInsertRowid);
    },
    updateDelivery: (
      id: string,
      state: StoredDelivery['state'],
      error?: string,
      changes?: RecordedChange[],
    ) => {
      updateDelivery.run(
        state,
        error ?? null,
        changes === undefined ? null : JSON.stringify(changes),
        Number(id),
      );
    },
    deleteDelivery: (id: string) => {
      deleteDelivery.run(Number(id));
    },
    listDeliveries: (query: { state?: StoredDelivery['state'] } = {}) =>
      (query.state === undefined ? listDeliveries.all() : listDeliveriesIn.all(query.state)).map(
        deliveryFromRow,
      ),
    close: () => db.close(),
  };
}
