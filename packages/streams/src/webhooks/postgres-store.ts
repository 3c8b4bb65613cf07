/**
 * `@blockwire/streams/postgres`: a `TxStore` in PostgreSQL, for several receiver processes (on
 * several machines) sharing one database. The ordering lives in the database: a record moves only
 * through one `INSERT … ON CONFLICT … DO UPDATE … WHERE rank(new) > rank(stored)` statement, which
 * PostgreSQL runs under the row's lock, so of any number of processes applying the same delivery
 * at once exactly one moves the record and is told the stage it really replaced.
 */
import { ValidationError } from '@blockwire/core';
import { checkOptionsObject } from '@blockwire/core/operations';
import { rawTextOf } from './body.js';
import type { BitcoinDeliveryStage } from './payloads.js';
import {
  isConnectionLost,
  type OwnerSession,
  openOwnerSession,
  type PostgresPool,
  retried,
  takeOver,
  withClient,
} from './postgres-connection.js';
import { checkSchema, type PostgresTxStoreSql, postgresTxStoreSql } from './postgres-sql.js';
import {
  deliveryFromRow,
  type RecordedChange,
  type StoredDelivery,
  type TxRecord,
  type TxStore,
} from './store.js';

/** Anything that runs a query: a `pg.Pool`, a `pg.Client`, a client of a pool inside your transaction. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

export type { PostgresClient, PostgresPool } from './postgres-connection.js';
export { postgresTxStoreSql } from './postgres-sql.js';

type Row = Record<string, unknown>;

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
      return owners.run(async ({ client, owner }) => {
        const { rows } = await client.query(sql.saveDelivery, [owner, receivedAt, text]);
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
      const owner = await owners.run(async ({ client, owner }) => {
        const { rows } = await client.query(sql.otherOwners, [owner]);
        for (const { owner: other } of rows) await takeOver(client, sql, namespace, owner, Number(other));
        return owner;
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

/**
 * The store's owner sessions: the current one, and a new one (a new owner, taking over what the
 * lost one held) as soon as one is lost — opened again and again while the server is away.
 */
function ownerSessions(db: PostgresPool, sql: PostgresTxStoreSql, namespace: number) {
  let opening: Promise<OwnerSession> | undefined;
  let open: OwnerSession | undefined;
  /** The owner of the session lost last, until a new session has taken its deliveries over. */
  let lostOwner: number | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const onLost = (session: OwnerSession) => {
    if (open !== session) return;
    open = undefined;
    opening = undefined;
    lostOwner = session.owner;
    reopenSoon(50);
  };

  function reopenSoon(delayMs: number): void {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      current().catch(() => reopenSoon(Math.min(1_000, delayMs * 2)));
    }, delayMs);
    (retry as { unref?: () => void }).unref?.();
  }

  function current(): Promise<OwnerSession> {
    if (closed) return Promise.reject(new Error('the PostgreSQL store is closed'));
    opening ??= openOwnerSession(db, sql, namespace, lostOwner, onLost).then(
      (session) => {
        if (closed) {
          session.close();
          throw new Error('the PostgreSQL store is closed');
        }
        open = session;
        lostOwner = undefined;
        return session;
      },
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  }

  return {
    current,
    /** Runs `work` on the owner session; on a new one when the connection drops under it. */
    run<T>(work: (session: OwnerSession) => Promise<T>): Promise<T> {
      return retried(async () => {
        const session = await current();
        try {
          return await work(session);
        } catch (error) {
          if (isConnectionLost(error)) session.close();
          throw error;
        }
      });
    },
    /** Ends the owner session; `false` when it was closed already. */
    close(): boolean {
      if (closed) return false;
      closed = true;
      clearTimeout(retry);
      // Destroyed, not returned to the pool: the lock goes with the connection.
      open?.close();
      return true;
    },
  };
}

/**
 * The fields the store keeps in columns of their own must be text PostgreSQL can hold: no U+0000,
 * no lone surrogate (no real txid, stream id or block has them; the transaction itself may, and is
 * kept as JSON text).
 */
function checkKeys(record: TxRecord, index: number): void {
  const UNSTORABLE = /[\0\p{Cs}]/u; // in `u` mode, a surrogate matches only when it is alone
  const keys = {
    txid: record.txid,
    streamId: record.streamId,
    'block.height': record.block.height,
    'block.hash': record.block.hash,
  };
  for (const [path, value] of Object.entries(keys)) {
    if (typeof value === 'string' && !UNSTORABLE.test(value)) continue;
    throw new ValidationError(
      [
        {
          path: path === 'txid' ? `transactions[${index}].txid` : path,
          message: 'holds U+0000 or a lone surrogate, which PostgreSQL cannot store',
        },
      ],
      { subject: 'Bitcoin webhook payload' },
    );
  }
}

/** PostgreSQL's text cannot hold U+0000 (a message may quote what a delivery carried). */
const withoutNul = (text: string) => text.replaceAll('\0', '\uFFFD');

async function poolFor(connectionString: string): Promise<PostgresPool> {
  let pg: typeof import('pg');
  try {
    const loaded = (await import('pg')) as typeof import('pg') & { default?: typeof import('pg') };
    pg = loaded.default ?? loaded;
  } catch {
    throw new Error(
      'createPostgresTxStore(connectionString) needs the `pg` package (an optional peer dependency): npm install pg — or pass your own pg.Pool',
    );
  }
  const pool = new pg.Pool({ connectionString });
  // An idle connection that breaks must not end the process (pg emits `error` on the pool).
  pool.on('error', () => undefined);
  return pool as unknown as PostgresPool;
}

/** Creates and migrates the tables in one transaction, under an advisory lock: many openers at once are fine. */
async function migrate(db: PostgresPool, sql: PostgresTxStoreSql): Promise<void> {
  await retried(() =>
    withClient(db, async (client) => {
      try {
        await client.query('BEGIN');
        let version = 0;
        for (const statement of sql.prepare) {
          const { rows } = await client.query(statement);
          if (rows[0] && 'version' in rows[0]) version = Number(rows[0].version);
        }
        if (version > sql.migrations.length) {
          throw new Error(
            `the Blockwire tables are at version ${version}, newer than this @blockwire/streams knows (${sql.migrations.length}): upgrade it`,
          );
        }
        for (let next = version + 1; next <= sql.migrations.length; next++) {
          await client.query(sql.migrations[next - 1]!);
          await client.query(sql.recordVersion, [next]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }),
  );
}

const toRecord = (row: Row): TxRecord => ({
  txid: String(row.txid),
  stage: row.stage as BitcoinDeliveryStage,
  tx: JSON.parse(String(row.tx)),
  block: { height: String(row.block_height), hash: String(row.block_hash) },
  streamId: String(row.stream_id),
  firstSeenAt: Number(row.first_seen_at),
  updatedAt: Number(row.updated_at),
  ...(row.delivery_id == null
    ? {}
    : {
        deliveryId: String(row.delivery_id),
        previousStage: (row.previous_stage ?? null) as BitcoinDeliveryStage | null,
      }),
});
