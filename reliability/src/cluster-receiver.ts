/**
 * Several webhook receivers behind one port, the way the streams README sets them up on one
 * PostgreSQL: a node:cluster primary forks `workers` processes, each with its own pg pool,
 * `createPostgresTxStore`, tracker and `createWebhookHandler`, all listening on one shared
 * 127.0.0.1 port (the primary hands connections out in turn). A worker that dies is forked again.
 *
 *   node cluster-receiver.ts <database url> <schema> <reports table> <log folder> <secret> <workers> [resumeEveryMs] [poolIdleTimeoutMs]
 *
 * The primary prints `{"port": N, "workers": [pid…]}` once every worker listens, then one line per
 * worker that exits (`{"exited": pid}`) and per worker forked in its place (`{"forked": pid}`).
 * Each answer carries `x-worker: <pid>`. Each callback appends its delivery id to
 * `<log folder>/runs-<pid>.log` (every run, finished or not), then writes the changes it was told
 * into `<reports table>` and settles the delivery in one transaction. SIGTERM to the primary stops
 * the workers gracefully (their callbacks finish, their stores close) and exits 0.
 */
import cluster, { type Worker } from 'node:cluster';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createBitcoinTxTracker, createWebhookHandler, type TxChange } from '@blockwire/streams';
import { createPostgresTxStore, type PostgresTxStore } from '@blockwire/streams/postgres';
import pg from 'pg';

const [databaseUrl, schema, reportsTable, logDir, secret, workerCount, resumeEvery = '500', poolIdle] =
  process.argv.slice(2);
if (!databaseUrl || !schema || !reportsTable || !logDir || !secret || !workerCount) {
  process.stderr.write(
    'usage: cluster-receiver.ts <database url> <schema> <reports table> <log folder> <secret> <workers> [resumeEveryMs] [poolIdleTimeoutMs]\n',
  );
  process.exit(2);
}

const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

if (cluster.isPrimary) await primary(Number(workerCount));
else await worker();

async function primary(count: number): Promise<void> {
  let stopping = false;
  let port = 0;
  const fork = (onListening: (worker: Worker) => void) => {
    const forked = cluster.fork();
    forked.once('listening', (address) => {
      port = address.port;
      onListening(forked);
    });
  };
  cluster.on('exit', (dead, code, signal) => {
    if (stopping) return;
    say({ exited: dead.process.pid, code, signal });
    fork((forked) => say({ forked: forked.process.pid }));
  });
  await new Promise<void>((resolve) => {
    let listening = 0;
    for (let i = 0; i < count; i++) fork(() => ++listening === count && resolve());
  });
  say({ port, workers: Object.values(cluster.workers ?? {}).map((w) => w!.process.pid) });

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}) as Worker[];
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  // Orphaned (the scenario's process died without stopping it): stop too, workers first.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void stop(), 1_000).unref();
}

async function worker(): Promise<void> {
  // With a server that ends idle sessions, the pool closes its idle connections first (the README says so).
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 8,
    ...(poolIdle === undefined ? {} : { idleTimeoutMillis: Number(poolIdle) }),
  });
  const log = (line: string) => process.stderr.write(`receiver ${process.pid} ${line}\n`);
  // An idle connection the server ended (a restart, idle_session_timeout): the pool drops it.
  pool.on('error', (error) => process.stderr.write(`pool ${process.pid} ${error.message}\n`));
  const store: PostgresTxStore = await createPostgresTxStore(pool, { schema });
  const runs = join(logDir!, `runs-${process.pid}.log`);

  /** The callback's own writes and the settle, in one transaction. */
  async function report(changes: TxChange[], deliveryId: string): Promise<void> {
    const client = await pool.connect();
    // As the README's receiver: a connection that drops mid-callback must not end the process.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      if (changes.length > 0) {
        await client.query(
          `INSERT INTO "${schema}"."${reportsTable}" (delivery_id, txid, from_stage, to_stage, worker)
           SELECT $1, txid, "from", "to", $2 FROM jsonb_to_recordset($3::jsonb) AS c(txid text, "from" text, "to" text)`,
          [
            deliveryId,
            process.pid,
            JSON.stringify(changes.map(({ txid, from, to }) => ({ txid, from, to }))),
          ],
        );
      }
      await store.settleWithin(client, deliveryId);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', onLost);
      client.release(lost);
    }
  }

  const handler = createWebhookHandler({
    secret: secret!,
    tracker: createBitcoinTxTracker({ store }),
    // Deliveries of a worker that died are also finished by the live ones, not only at a start.
    resumeEveryMs: Number(resumeEvery),
    onBitcoin: async (_payload, { changes, deliveryId }) => {
      appendFileSync(runs, `${deliveryId} ${Date.now()}\n`);
      await report(changes ?? [], deliveryId!);
    },
    onError: (error, { phase }) => log(`${phase}: ${error instanceof Error ? error.message : String(error)}`),
  });
  const server = createServer((req, res) => {
    res.setHeader('x-worker', String(process.pid));
    return handler.node(req, res);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  process.once('SIGTERM', async () => {
    server.close();
    server.closeIdleConnections();
    await handler.close();
    await store.close();
    await pool.end();
    process.exit(0);
  });
}
