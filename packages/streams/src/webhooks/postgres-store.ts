/**
 * `@blockwire/streams/postgres`: a `TxStore` in PostgreSQL, for several receiver processes (on
 * several machines) sharing one database. The ordering lives in the database: a record moves only
 * through one `INSERT … ON CONFLICT … DO UPDATE … WHERE rank(new) > rank(stored)` statement, which
 * PostgreSQL runs under the row's lock, so of any number of processes applying the same delivery
 * at once exactly one moves the record and is told the stage it really replaced.
 */
import { checkOptionsObject } from '@blockwire/core/internal';
import { rawTextOf } from './body.js';
import { BITCOIN_DELIVERY_STAGES, type BitcoinDeliveryStage } from './payloads.js';
import {
  deliveryFromRow,
  type RecordedChange,
  type StoredDelivery,
  type TxRecord,
  type TxStore,
} from './store.js';

/** What the store uses of a `pg.Client` (a pool's client): structural, so no types of `pg` leak into yours. */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'error' | 'end', listener: (...args: unknown[]) => void): unknown;
}

/** Anything that runs a query: a `pg.Pool`, a `pg.Client`, a client of a pool inside your transaction. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** What the store uses of a `pg.Pool`. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
  connect(): Promise<PostgresClient>;
  end(): Promise<void>;
}

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

/** The advisory-lock namespace of every Blockwire lock of a schema: the first key of two. */
export function advisoryNamespace(schema: string): number {
  // FNV-1a, folded into a positive int4 (the two-key form takes two int4s).
  let hash = 0x811c9dc5;
  for (const char of `blockwire:${schema}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fffffff;
}

/** The second key of the migration lock; owner locks use the owner id (≥ 1). */
const MIGRATION_LOCK = 0;

const rank = (column: string) =>
  `(CASE ${column} ${BITCOIN_DELIVERY_STAGES.map((stage, index) => `WHEN '${stage}' THEN ${index}`).join(' ')} END)`;
const stageList = BITCOIN_DELIVERY_STAGES.map((stage) => `'${stage}'`).join(', ');
const DELIVERY_STATES: readonly StoredDelivery['state'][] = ['received', 'applied', 'failed'];

function checkSchema(schema: string): string {
  if (typeof schema !== 'string' || !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(
      `createPostgresTxStore: \`schema\` must be lowercase letters, digits and _ (at most 63), not ${JSON.stringify(schema)}`,
    );
  }
  return schema;
}

/**
 * Every statement the store runs, for a schema: the migrations (each applied once, in order, under
 * an advisory lock) and the statements of its methods. The README quotes them from here.
 */
export function postgresTxStoreSql(schema = 'public') {
  const s = `"${checkSchema(schema)}"`;
  const txs = `${s}.blockwire_bitcoin_txs`;
  const deliveries = `${s}.blockwire_bitcoin_deliveries`;
  const versions = `${s}.blockwire_schema_version`;
  const namespace = advisoryNamespace(schema);
  const columns = `txid, stage, previous_stage, stream_id, block_height, block_hash, tx::text AS tx,
         first_seen_at, updated_at, delivery_id`;
  return {
    /** Run first, in one transaction with the migrations, each time a store opens. */
    prepare: [
      `SELECT pg_advisory_xact_lock(${namespace}, ${MIGRATION_LOCK})`,
      ...(schema === 'public' ? [] : [`CREATE SCHEMA IF NOT EXISTS ${s}`]),
      `CREATE TABLE IF NOT EXISTS ${versions} (
  version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`,
      `SELECT coalesce(max(version), 0) AS version FROM ${versions}`,
    ],
    /** Migration n is `migrations[n - 1]`; each is recorded in the version table once applied. */
    migrations: [
      `CREATE TABLE ${txs} (
  txid text PRIMARY KEY,
  stage text NOT NULL CHECK (stage IN (${stageList})),
  previous_stage text CHECK (previous_stage IN (${stageList})),
  stream_id text NOT NULL,
  block_height text NOT NULL,
  block_hash text NOT NULL,
  tx jsonb NOT NULL,
  first_seen_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  delivery_id bigint
);
CREATE INDEX blockwire_bitcoin_txs_stage ON ${txs} (stage, first_seen_at);
CREATE TABLE ${deliveries} (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner integer NOT NULL,
  received_at bigint NOT NULL,
  state text NOT NULL CHECK (state IN (${DELIVERY_STATES.map((state) => `'${state}'`).join(', ')})),
  error text,
  changes jsonb,
  payload text NOT NULL
);
CREATE INDEX blockwire_bitcoin_deliveries_owner ON ${deliveries} (owner, id);
CREATE SEQUENCE ${s}.blockwire_owner_ids AS integer MINVALUE 1 CYCLE;`,
    ],
    recordVersion: `INSERT INTO ${versions} (version) VALUES ($1)`,
    /** A new owner: one id per store opened, held as a session-level advisory lock while it lives. */
    newOwner: `SELECT nextval('${s}.blockwire_owner_ids')::integer AS owner`,
    lockOwner: `SELECT pg_advisory_lock(${namespace}, $1)`,
    /** Succeeds only when the owner's session is gone: then this session holds its lock for the takeover. */
    tryLockOwner: `SELECT pg_try_advisory_lock(${namespace}, $1) AS free`,
    unlockOwner: `SELECT pg_advisory_unlock(${namespace}, $1)`,
    otherOwners: `SELECT DISTINCT owner FROM ${deliveries} WHERE owner <> $1`,
    takeOver: `UPDATE ${deliveries} SET owner = $1 WHERE owner = $2`,
    /**
     * The move of `advance`, one statement: the delivery's row is locked first (a receiver taking
     * it over waits for the move to end), every record moves forward under its row lock (rows in
     * txid order, so two deliveries never wait on each other in a cycle), `previous_stage` takes
     * the stage it replaced, and the delivery is marked applied with those moves — unless it was
     * applied already, by a receiver that died with this very statement sent.
     */
    advance: `WITH delivery AS (
  SELECT id FROM ${deliveries} WHERE id = $2::bigint FOR UPDATE
), incoming AS (
  SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(
    txid text, stage text, stream_id text, block_height text, block_hash text, tx jsonb, at bigint),
    (SELECT count(*) FROM delivery) AS locked
), moved AS (
  INSERT INTO ${txs} AS t (txid, stage, previous_stage, stream_id, block_height, block_hash, tx,
                            first_seen_at, updated_at, delivery_id)
  SELECT txid, stage, NULL, stream_id, block_height, block_hash, tx, at, at, $2::bigint
  FROM incoming ORDER BY txid
  ON CONFLICT (txid) DO UPDATE SET
    stage = excluded.stage, previous_stage = t.stage, stream_id = excluded.stream_id,
    block_height = excluded.block_height, block_hash = excluded.block_hash, tx = excluded.tx,
    updated_at = excluded.updated_at, delivery_id = excluded.delivery_id
  WHERE ${rank('excluded.stage')} > ${rank('t.stage')}
  RETURNING t.txid, t.previous_stage, t.stage
), marked AS (
  UPDATE ${deliveries}
  SET state = 'applied', error = NULL, changes = (
    SELECT coalesce(jsonb_agg(jsonb_build_object('txid', txid, 'from', previous_stage, 'to', stage)
                              ORDER BY txid), '[]'::jsonb)
    FROM moved)
  WHERE id = $2::bigint AND state <> 'applied'
)
SELECT txid, previous_stage, stage FROM moved`,
    put: `INSERT INTO ${txs} AS t (txid, stage, previous_stage, stream_id, block_height, block_hash, tx,
                          first_seen_at, updated_at, delivery_id)
VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10)
ON CONFLICT (txid) DO UPDATE SET
  stage = excluded.stage, previous_stage = excluded.previous_stage, stream_id = excluded.stream_id,
  block_height = excluded.block_height, block_hash = excluded.block_hash, tx = excluded.tx,
  first_seen_at = least(t.first_seen_at, excluded.first_seen_at), updated_at = excluded.updated_at,
  delivery_id = excluded.delivery_id
WHERE ${rank('excluded.stage')} > ${rank('t.stage')}`,
    get: `SELECT ${columns} FROM ${txs} WHERE txid = $1`,
    list: `SELECT ${columns} FROM ${txs} WHERE $1::text IS NULL OR stage = $1 ORDER BY first_seen_at, txid`,
    saveDelivery: `INSERT INTO ${deliveries} (owner, received_at, state, payload)
VALUES ($1, $2, 'received', $3) RETURNING id::text AS id`,
    updateDelivery: `UPDATE ${deliveries} SET state = $2, error = $3, changes = coalesce($4::jsonb, changes)
WHERE id = $1`,
    deleteDelivery: `DELETE FROM ${deliveries} WHERE id = $1`,
    listDeliveries: `SELECT id::text AS id, received_at, state, error, changes::text AS changes, payload
FROM ${deliveries} WHERE owner = $1 AND ($2::text IS NULL OR state = $2) ORDER BY id`,
  };
}

type Sql = ReturnType<typeof postgresTxStoreSql>;

/** PostgreSQL's codes for a statement that lost to another one and changed nothing: run it again. */
const RETRYABLE = new Set(['40P01', '40001']);

async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5 || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 10));
    }
  }
}

/**
 * A `TxStore` in PostgreSQL for receivers on several processes or machines sharing one database:
 * give it your `pg.Pool` (the store never ends it) or a connection string (it makes a pool of
 * `pg`, an optional peer dependency, and ends it on `close()`). It creates and migrates its tables
 * itself. It keeps one connection of the pool for as long as it is open: the session holding its
 * owner lock, by which other receivers know it is alive.
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
  try {
    await migrate(db, sql);
  } catch (error) {
    if (ownPool) await db.end().catch(() => undefined);
    throw error;
  }

  let session: ReturnType<typeof openSession> | undefined;
  let closed = false;
  /** The session holding this store's owner lock; a new one (a new owner) when it was lost. */
  function ownerSession() {
    if (closed) return Promise.reject(new Error('the PostgreSQL store is closed'));
    session ??= openSession(db, sql, () => {
      session = undefined;
    }).catch((error: unknown) => {
      session = undefined;
      throw error;
    });
    return session;
  }
  await ownerSession();

  /** Takes over the deliveries of every owner whose session is gone. */
  async function takeOverDeliveries(client: PostgresClient, owner: number): Promise<void> {
    const { rows } = await client.query(sql.otherOwners, [owner]);
    for (const { owner: other } of rows) {
      const { rows: lock } = await client.query(sql.tryLockOwner, [other]);
      if (!lock[0]?.free) continue; // alive
      try {
        await client.query(sql.takeOver, [owner, other]);
      } finally {
        await client.query(sql.unlockOwner, [other]);
      }
    }
  }

  return {
    async get(txid) {
      const { rows } = await db.query(sql.get, [txid]);
      return rows[0] && toRecord(rows[0]);
    },
    async put(record) {
      const { rowCount } = await retried(() =>
        db.query(sql.put, [
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
        ]),
      );
      return (rowCount ?? 0) > 0;
    },
    async advance(records, deliveryId) {
      const incoming = records.map((record) => ({
        txid: record.txid,
        stage: record.stage,
        stream_id: record.streamId,
        block_height: record.block.height,
        block_hash: record.block.hash,
        tx: record.tx,
        at: record.firstSeenAt,
      }));
      const { rows } = await retried(() =>
        db.query(sql.advance, [JSON.stringify(incoming), deliveryId ?? null]),
      );
      return rows.map((row) => ({
        txid: String(row.txid),
        from: (row.previous_stage ?? null) as BitcoinDeliveryStage | null,
        to: row.stage as BitcoinDeliveryStage,
      }));
    },
    async list({ stage }) {
      const { rows } = await db.query(sql.list, [stage ?? null]);
      return rows.map(toRecord);
    },
    async saveDelivery(payload, receivedAt) {
      const { owner } = await ownerSession();
      const text = rawTextOf(payload) ?? JSON.stringify(payload);
      const { rows } = await db.query(sql.saveDelivery, [owner, receivedAt, text]);
      return String(rows[0]!.id);
    },
    async updateDelivery(id, state, error, changes) {
      await db.query(sql.updateDelivery, [
        id,
        state,
        error ?? null,
        changes === undefined ? null : JSON.stringify(changes),
      ]);
    },
    async deleteDelivery(id) {
      await db.query(sql.deleteDelivery, [id]);
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
      const { client, owner } = await ownerSession();
      await takeOverDeliveries(client, owner);
      const { rows } = await db.query(sql.listDeliveries, [owner, query.state ?? null]);
      return rows.map(deliveryFromRow);
    },
    async owner() {
      return (await ownerSession()).owner;
    },
    async close() {
      if (closed) return;
      const open = session;
      closed = true;
      session = undefined;
      // Destroyed, not returned to the pool: the lock goes with the connection.
      await open?.then((ended) => ended.close()).catch(() => undefined);
      if (ownPool) await db.end();
    },
  };
}

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
async function migrate(db: PostgresPool, sql: Sql): Promise<void> {
  const client = await db.connect();
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
    client.release();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}

/**
 * A connection kept for the store's lifetime, holding the session-level advisory lock of a new
 * owner id. When it breaks, `onLost` runs and the next call opens another (under a new owner).
 */
async function openSession(db: PostgresPool, sql: Sql, onLost: () => void) {
  const client = await db.connect();
  // Kept for the client's whole life: a connection that breaks emits `error`, and an `error`
  // without a listener would end the process.
  client.on('error', () => undefined);
  let gone = false;
  const lost = () => {
    if (gone) return;
    gone = true;
    onLost();
    try {
      client.release(true); // back to the pool, which drops it and opens a new one when needed
    } catch {
      // Already released.
    }
  };
  client.on('error', lost);
  client.on('end', lost);
  try {
    const { rows } = await client.query(sql.newOwner);
    const owner = Number(rows[0]!.owner);
    await client.query(sql.lockOwner, [owner]);
    return { client, owner, close: lost };
  } catch (error) {
    lost();
    throw error;
  }
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
