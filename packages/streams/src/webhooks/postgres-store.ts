/**
 * `@blockwire/streams/postgres`: a `TxStore` in PostgreSQL, for several receiver processes (on
 * several machines) sharing one database. The ordering lives in the database: a record moves only
 * through one `INSERT … ON CONFLICT … DO UPDATE … WHERE rank(new) > rank(stored)` statement, which
 * PostgreSQL runs under the row's lock, so of any number of processes applying the same delivery
 * at once exactly one moves the record and is told the stage it really replaced.
 */
import { checkOptionsObject } from '@blockwire/core/operations';
import { rawTextOf } from './body.js';
import type { BitcoinDeliveryStage } from './payloads.js';
import { guardPoolClients, type PostgresPool, retried, takeOver } from './postgres-connection.js';
import { ownerSessions } from './postgres-owner-sessions.js';
import { checkKeys, toRecord, withoutNul } from './postgres-rows.js';
import { migrate, poolFor } from './postgres-setup.js';
import { checkSchema, postgresTxStoreSql } from './postgres-sql.js';
import {
  deliveryFromRow,
  type RecordedChange,
  type StoredDelivery,
  type TxRecord,
  type TxStore,
} from './store.js';

// The store's other jobs live beside it: the pool and the migrations (postgres-setup), the owner
// sessions (postgres-owner-sessions), its rows and what they may hold (postgres-rows), the SQL
// (postgres-sql) and the connection (postgres-connection). This file is the store's methods.

/** Anything that runs a query: a `pg.Pool`, a `pg.Client`, a client of a pool inside your transaction. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

export type { PostgresClient, PostgresPool } from './postgres-connection.js';
export { postgresTxStoreSql } from './postgres-sql.js';

export interface PostgresTxStoreOptions {
  /**
   * The schema of the store's tables, created when missing (`CREATE SCHEMA IF NOT EXISTS`, except
   * for `public`). Lowercase letters, digits and `_`. Default `public`.
   */
  schema?: string;
}

/** The PostgreSQL store: every method is async; `advance` is what makes it safe to share. */
export interface PostgresTxStore extends TxStore {
  get(txid: string): Promise<TxRecord | undefined>;
  put(record: TxRecord): Promise<boolean>;
  advance(records: TxRecord[], deliveryId?: string): Promise<RecordedChange[]>;
  list(query: { stage?: BitcoinDeliveryStage }): Promise<TxRecord[]>;
  saveDelivery(payload: unknown, receivedAt: number): Promise<string>;
  updateDelivery(
    id: string,
    state: StoredDelivery['state'],
    error?: string,
    changes?: RecordedChange[],
  ): Promise<void>;
  deleteDelivery(id: string): Promise<void>;
  /**
   * This store's deliveries, oldest first, after taking over those of every owner that is gone
   * (its session ended: the process died, or closed its store).
   */
  listDeliveries(query?: { state?: StoredDelivery['state'] }): Promise<StoredDelivery[]>;
  /**
   * Settles a delivery inside your own transaction on `client` (a client of your pool, between
   * your `BEGIN` and `COMMIT`): your callback's writes and the settle commit together, so a crash
   * can neither lose them nor, by running the callback again, write them twice. The handler's own
   * settle afterwards then finds nothing left to do. Rejects when the delivery is gone already —
   * settled by another run of the same callback that committed first — so roll back then.
   */
  settleWithin(client: PostgresQueryable, deliveryId: string): Promise<void>;
  /** This store's owner id: the deliveries it saves carry it while it lives. */
  owner(): Promise<number>;
  /** Ends the owner session (its deliveries can then be taken over) and the pool if the store made it. */
  close(): Promise<void>;
}

/**
 * A `TxStore` in PostgreSQL for receivers on several processes or machines sharing one database:
 * give it your `pg.Pool` (the store never ends it) or a connection string (it makes a pool of
 * `pg`, an optional peer dependency, and ends it on `close()`). It creates and migrates its tables
 * itself. It keeps one connection of the pool for as long as it is open: the session holding its
 * owner lock, by which other receivers know it is alive. A connection that drops (a restart, an
 * idle timeout) is opened again and the statement run again; the owner session, when it drops,
 * comes back under a new owner that takes over what the old one held.
 */
export async function createPostgresTxStore(
  pool: PostgresPool | string,
  options: PostgresTxStoreOptions = {},
): Promise<PostgresTxStore> {
  checkOptionsObject(options, {
    subject: 'createPostgresTxStore options',
    kind: 'option',
    names: Object.keys({ schema: true } satisfies Record<keyof PostgresTxStoreOptions, true>),
    example: "{ schema: 'receivers' }",
  });
  const schema = checkSchema(options.schema ?? 'public');
  const sql = postgresTxStoreSql(schema);
  const ownPool = typeof pool === 'string';
  const db: PostgresPool = ownPool ? await poolFor(pool) : pool;
  if (!db || typeof db.query !== 'function' || typeof db.connect !== 'function') {
    throw new TypeError('createPostgresTxStore needs a pg.Pool (or a connection string)');
  }
  guardPoolClients(db);
  const max = (db as { options?: { max?: unknown } }).options?.max;
  if (typeof max === 'number' && max < 2) {
    // The store keeps one connection for its owner lock: with one, every query would wait forever.
    throw new TypeError(`createPostgresTxStore needs a pool of at least 2 connections (\`max\`), not ${max}`);
  }
  let namespace: number;
  try {
    await migrate(db, sql);
    namespace = Number((await db.query(sql.lockNamespace)).rows[0]!.namespace);
  } catch (error) {
    if (ownPool) await db.end().catch(() => undefined);
    throw error;
  }
  const owners = ownerSessions(db, sql, namespace);
  try {
    await owners.current();
  } catch (error) {
    owners.close();
    if (ownPool) await db.end().catch(() => undefined);
    throw error;
  }

  /** A query of the pool, run again when it lost a race or its connection (every statement here may be). */
  const query = (text: string, values?: unknown[]) => retried(() => db.query(text, values));

  return {
    async get(txid) {
      const { rows } = await query(sql.get, [txid]);
      return rows[0] && toRecord(rows[0]);
    },
    async put(record) {
      const { rowCount } = await query(sql.put, [
        record.txid,
        record.stage,
        record.previousStage ?? null,
        record.streamId,
        record.block.height,
        record.block.hash,
        JSON.stringify(record.tx),
        record.firstSeenAt,
        record.updatedAt,
        record.deliveryId ?? null,
      ]);
      return (rowCount ?? 0) > 0;
    },
    async advance(records, deliveryId) {
      for (const [index, record] of records.entries()) checkKeys(record, index);
      const incoming = records.map((record) => ({
        txid: record.txid,
        stage: record.stage,
        stream_id: record.streamId,
        block_height: record.block.height,
        block_hash: record.block.hash,
        // JSON text inside the JSON: jsonb would refuse a \u0000 or a lone surrogate the tx may carry.
        tx: JSON.stringify(record.tx),
        at: record.firstSeenAt,
      }));
      const { rows } = await query(sql.advance, [JSON.stringify(incoming), deliveryId ?? null]);
      return JSON.parse(String(rows[0]!.changes)) as RecordedChange[];
    },
    async list({ stage }) {
      const { rows } = await query(sql.list, [stage ?? null]);
      return rows.map(toRecord);
    },
    saveDelivery(payload, receivedAt) {
      const text = rawTextOf(payload) ?? JSON.stringify(payload);
      // On the owner session itself: a delivery is only ever written under an owner whose lock is
      // held at that moment, never under one whose session is gone (another receiver could take
      // it over at once).
      return owners.run(async (session) => {
        const { rows } = await session.query(sql.saveDelivery, [session.owner, receivedAt, text]);
        return String(rows[0]!.id);
      });
    },
    async updateDelivery(id, state, error, changes) {
      await query(sql.updateDelivery, [
        id,
        state,
        error === undefined ? null : withoutNul(error),
        changes === undefined ? null : JSON.stringify(changes),
      ]);
    },
    async deleteDelivery(id) {
      await query(sql.deleteDelivery, [id]);
    },
    async settleWithin(client, deliveryId) {
      if (!client || typeof client.query !== 'function') {
        throw new TypeError('settleWithin needs `client`: the client your transaction runs on');
      }
      const result = (await client.query(sql.deleteDelivery, [deliveryId])) as { rowCount?: number | null };
      if (result?.rowCount === 0) {
        // Its callback ran elsewhere too (a receiver that took it over) and committed first.
        throw new Error(
          `delivery ${deliveryId} is settled already (another receiver ran it too): roll your transaction back`,
        );
      }
    },
    async listDeliveries(query = {}) {
      const owner = await owners.run(async (session) => {
        const { rows } = await session.query(sql.otherOwners, [session.owner]);
        for (const { owner: other } of rows)
          await takeOver(session, sql, namespace, session.owner, Number(other));
        return session.owner;
      });
      const { rows } = await retried(() => db.query(sql.listDeliveries, [owner, query.state ?? null]));
      return rows.map(deliveryFromRow);
    },
    async owner() {
      return (await owners.current()).owner;
    },
    async close() {
      if (owners.close() && ownPool) await db.end();
    },
  };
}
