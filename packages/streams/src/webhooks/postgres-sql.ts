/**
 * Every statement the PostgreSQL store runs, for one schema: the migrations and the statements of
 * its methods. The README quotes them from here (postgres-store.test.ts checks).
 */
import { ValidationError } from '@blockwire/core';
import { BITCOIN_DELIVERY_STAGES, bitcoinStageRankSql as rank } from './payloads.js';
import type { StoredDelivery } from './store.js';

/** The second key of the migration lock; owner locks use the owner id (≥ 1). */
const MIGRATION_LOCK = 0;

const stageList = BITCOIN_DELIVERY_STAGES.map((stage) => `'${stage}'`).join(', ');
const DELIVERY_STATES: readonly StoredDelivery['state'][] = ['received', 'applied', 'failed'];

/** Schemas PostgreSQL keeps for itself: `pg_*` (pg_catalog, pg_toast, pg_temp…) and information_schema. */
const RESERVED_SCHEMA = /^(pg_|information_schema$)/;

/** The schema name, checked: a plain lowercase identifier PostgreSQL leaves to its users. */
export function checkSchema(schema: unknown): string {
  const refuse = (message: string) =>
    new ValidationError([{ path: 'schema', message }], { subject: 'options of createPostgresTxStore' });
  if (typeof schema !== 'string' || !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw refuse(`must be lowercase letters, digits and _ (at most 63), not ${JSON.stringify(schema)}`);
  }
  if (RESERVED_SCHEMA.test(schema)) {
    throw refuse(
      `${JSON.stringify(schema)} is reserved by PostgreSQL (pg_* and information_schema): pick a schema of your own, e.g. "blockwire"`,
    );
  }
  return schema;
}

/**
 * The migration lock's first key: a hash of the schema name, since the schema may not exist yet.
 * Two schemas whose hashes meet only wait for each other's migrations, never longer.
 */
export function migrationNamespace(schema: string): number {
  // FNV-1a, folded into a positive int4 (the two-key form takes two int4s).
  let hash = 0x811c9dc5;
  for (const char of `blockwire:${schema}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fffffff;
}

/**
 * Every statement the store runs, for a schema: the migrations (each applied once, in order, under
 * an advisory lock) and the statements of its methods.
 */
export function postgresTxStoreSql(schema = 'public') {
  const s = `"${checkSchema(schema)}"`;
  const txs = `${s}.blockwire_bitcoin_txs`;
  const deliveries = `${s}.blockwire_bitcoin_deliveries`;
  const versions = `${s}.blockwire_schema_version`;
  const columns = `txid, stage, previous_stage, stream_id, block_height, block_hash, tx,
         first_seen_at, updated_at, delivery_id`;
  return {
    /** Run first, in one transaction with the migrations, each time a store opens. */
    prepare: [
      `SELECT pg_advisory_xact_lock(${migrationNamespace(schema)}, ${MIGRATION_LOCK})`,
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
      // jsonb refuses \u0000 and lone surrogates, which a delivery may carry: keep the JSON text as sent.
      `ALTER TABLE ${txs} ALTER COLUMN tx TYPE text USING tx::text;
ALTER TABLE ${deliveries} ALTER COLUMN changes TYPE text USING changes::text;`,
    ],
    recordVersion: `INSERT INTO ${versions} (version) VALUES ($1)`,
    /**
     * The first key of this schema's owner locks: its schema's oid, unique in the database (as
     * advisory locks are), folded into an int4.
     */
    lockNamespace: `SELECT (oid::bigint - 2147483648)::integer AS namespace FROM pg_namespace WHERE nspname = '${schema}'`,
    /**
     * A new owner: one id per owner session, held as a session-level advisory lock while it lives.
     * The session never ends for being idle (`idle_session_timeout`, PostgreSQL 14+).
     */
    newOwner: `SELECT nextval('${s}.blockwire_owner_ids')::integer AS owner,
  (SELECT set_config(name, '0', false) FROM pg_settings WHERE name = 'idle_session_timeout') AS kept`,
    lockOwner: 'SELECT pg_advisory_lock($1, $2)',
    /** Succeeds only when the owner's session is gone: then this session holds its lock for the takeover. */
    tryLockOwner: 'SELECT pg_try_advisory_lock($1, $2) AS free',
    unlockOwner: 'SELECT pg_advisory_unlock($1, $2)',
    otherOwners: `SELECT DISTINCT owner FROM ${deliveries} WHERE owner <> $1`,
    takeOver: `UPDATE ${deliveries} SET owner = $1 WHERE owner = $2`,
    /**
     * The move of `advance`, one statement: the delivery's row is locked first (a receiver taking
     * it over waits for the move to end), every record moves forward under its row lock (rows in
     * txid order, so two deliveries never wait on each other in a cycle), `previous_stage` takes
     * the stage it replaced, and the delivery is marked applied with those moves. A delivery
     * applied already (by this receiver's attempt whose answer the connection lost, or by another
     * that took it over) moves nothing again and answers the moves it made then: every run of its
     * callback is told the same changes, whichever of them commits.
     */
    advance: `WITH delivery AS (
  SELECT id, changes FROM ${deliveries} WHERE id = $2::bigint FOR UPDATE
), incoming AS (
  SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(
    txid text, stage text, stream_id text, block_height text, block_hash text, tx text, at bigint)
  WHERE NOT EXISTS (SELECT 1 FROM delivery WHERE changes IS NOT NULL)
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
  RETURNING t.txid, t.previous_stage AS "from", t.stage AS "to"
), made AS (
  SELECT coalesce(jsonb_agg(to_jsonb(moved) ORDER BY txid), '[]'::jsonb)::text AS changes FROM moved
), marked AS (
  UPDATE ${deliveries} SET state = 'applied', error = NULL, changes = (SELECT changes FROM made)
  WHERE id = (SELECT id FROM delivery WHERE changes IS NULL)
)
SELECT coalesce((SELECT changes FROM delivery), (SELECT changes FROM made)) AS changes`,
    put: `INSERT INTO ${txs} AS t (txid, stage, previous_stage, stream_id, block_height, block_hash, tx,
                          first_seen_at, updated_at, delivery_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
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
    updateDelivery: `UPDATE ${deliveries} SET state = $2, error = $3, changes = coalesce($4, changes)
WHERE id = $1`,
    deleteDelivery: `DELETE FROM ${deliveries} WHERE id = $1`,
    listDeliveries: `SELECT id::text AS id, received_at, state, error, changes, payload
FROM ${deliveries} WHERE owner = $1 AND ($2::text IS NULL OR state = $2) ORDER BY id`,
  };
}

export type PostgresTxStoreSql = ReturnType<typeof postgresTxStoreSql>;
