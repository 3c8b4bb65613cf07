import { Pool, type PoolConfig } from 'pg';

/** The one table the trigger keeps in the repeat store's database. */
export const REPEATS_TABLE = 'blockwire_trigger_deliveries';

/**
 * How long a delivery key is kept. The service stops retrying long before; a key older than this
 * is only met again if someone replays an old block on purpose.
 */
export const REPEATS_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60_000;

/** The SQL the store runs, in order: the schema (once per process), then per delivery. */
export const REPEATS_SQL = {
  schema: [
    `CREATE TABLE IF NOT EXISTS ${REPEATS_TABLE} (
  workflow_id text NOT NULL,
  node_id text NOT NULL,
  key text NOT NULL,
  first_seen timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workflow_id, node_id, key)
)`,
    `CREATE INDEX IF NOT EXISTS ${REPEATS_TABLE}_first_seen ON ${REPEATS_TABLE} (first_seen)`,
  ],
  // The primary key decides: of two processes inserting one key at once, one gets it back. Keys go
  // in sorted, so two inserts sharing keys wait on each other in one order, never in a deadlock.
  claim: `INSERT INTO ${REPEATS_TABLE} (workflow_id, node_id, key)
SELECT $1, $2, key FROM unnest($3::text[]) AS key ORDER BY key
ON CONFLICT DO NOTHING
RETURNING key`,
  prune: `DELETE FROM ${REPEATS_TABLE} WHERE first_seen < now() - make_interval(days => $1)`,
} as const;

export interface PostgresRepeatCredentials {
  host: string;
  port?: number;
  database: string;
  user: string;
  password?: string;
  ssl?: 'disable' | 'require' | 'allowUnauthorized';
}

interface Store {
  pool: Pool;
  ready: Promise<void>;
  prunedAt: number;
}

/** One pool per database per n8n process, kept while n8n runs. */
const stores = new Map<string, Store>();

export function poolConfig(credentials: PostgresRepeatCredentials): PoolConfig {
  const ssl = credentials.ssl ?? 'disable';
  return {
    host: credentials.host,
    port: credentials.port || 5432,
    database: credentials.database,
    user: credentials.user,
    password: credentials.password ?? '',
    ssl: ssl === 'disable' ? false : { rejectUnauthorized: ssl === 'require' },
    max: 4,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  };
}

async function createSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  let committed = false;
  try {
    // Two processes creating the table at once can collide in PostgreSQL's catalog: one at a time.
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${REPEATS_TABLE}'))`);
    for (const statement of REPEATS_SQL.schema) await client.query(statement);
    await client.query('COMMIT');
    committed = true;
  } finally {
    if (!committed) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

function storeFor(credentials: PostgresRepeatCredentials): Store {
  const config = poolConfig(credentials);
  const id = JSON.stringify([
    config.host,
    config.port,
    config.database,
    config.user,
    config.password,
    config.ssl,
  ]);
  let store = stores.get(id);
  if (!store) {
    const pool = new Pool(config);
    // An idle connection the server dropped must not take n8n down; the next query reconnects.
    pool.on('error', () => undefined);
    const created: Store = { pool, ready: createSchema(pool), prunedAt: 0 };
    // A failed schema creation is tried again by the next delivery, not cached.
    created.ready.catch(() => {
      if (stores.get(id) === created) stores.delete(id);
      void pool.end().catch(() => undefined);
    });
    stores.set(id, created);
    store = created;
  }
  return store;
}

/**
 * Records `keys` for a trigger node and returns those that were not recorded before — at most one
 * caller gets a key back, however many processes record it at the same moment.
 */
export async function claimInPostgres(
  credentials: PostgresRepeatCredentials,
  scope: { workflowId: string; nodeId: string },
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const store = storeFor(credentials);
  await store.ready;
  const { rows } = await store.pool.query<{ key: string }>(REPEATS_SQL.claim, [
    scope.workflowId,
    scope.nodeId,
    [...new Set(keys)].sort(),
  ]);
  if (Date.now() - store.prunedAt > PRUNE_EVERY_MS) {
    store.prunedAt = Date.now();
    await store.pool.query(REPEATS_SQL.prune, [REPEATS_RETENTION_DAYS]);
  }
  return new Set(rows.map((row) => row.key));
}

/** Connects, creates the table if needed, and reads it: what the credential test checks. */
export async function checkPostgresStore(credentials: PostgresRepeatCredentials): Promise<void> {
  const pool = new Pool({ ...poolConfig(credentials), max: 1 });
  pool.on('error', () => undefined);
  try {
    await createSchema(pool);
    await pool.query(`SELECT 1 FROM ${REPEATS_TABLE} LIMIT 1`);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
