import { type PostgresPool, retried, withClient } from './postgres-connection.js';
import type { PostgresTxStoreSql } from './postgres-sql.js';

/** A pool of `pg` (an optional peer dependency) for a connection string. */
export async function poolFor(connectionString: string): Promise<PostgresPool> {
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
export async function migrate(db: PostgresPool, sql: PostgresTxStoreSql): Promise<void> {
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
