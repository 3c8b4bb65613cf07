/**
 * The PostgreSQL store on a real PostgreSQL (Debian's package; a cluster of its own in a temp
 * folder on a free port, stopped after): the TxStore contract, many connections applying the same
 * deliveries at once, four stores migrating at once, and recovery that takes over only the
 * deliveries of owners that are gone — one of them a process killed with SIGKILL.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type PostgresServer, startPostgres } from '@blockwire/testing';
import { skipped } from '@blockwire/testing/skips';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bitcoinDelivery, MEMPOOL_DELIVERY, txidOf } from './__fixtures__/bitcoin.js';
import { txStoreContract } from './__fixtures__/store-contract.js';
import { createWebhookHandler } from './handler.js';
import { BITCOIN_DELIVERY_STAGES, type BitcoinDeliveryStage, bitcoinStageRank as rank } from './payloads.js';
import { createPostgresTxStore, type PostgresTxStore, postgresTxStoreSql } from './postgres-store.js';
import { signBody } from './signature.js';
import type { RecordedChange, TxStore } from './store.js';
import { createBitcoinTxTracker, type TxChange } from './tracker.js';
import { type StoreEvent, WEBHOOK_CHANNELS } from './webhook-events.js';

const dist = join(import.meta.dirname, '..', '..', 'dist');
const child = join(import.meta.dirname, '__fixtures__', 'postgres-child.mjs');

let server: PostgresServer;
let url: string;
let admin: pg.Pool;
const pools: pg.Pool[] = [];
const children: ChildProcess[] = [];
let nextSchema = 0;
const freshSchema = () => `t${process.pid}_${nextSchema++}`;

beforeAll(async () => {
  server = await startPostgres();
  url = server.createDatabase('streams_test');
  admin = new pg.Pool({ connectionString: url, max: 4 });
  admin.on('error', () => undefined); // its idle connections end when the server restarts
}, 120_000);

afterEach(() => {
  for (const process of children.splice(0)) if (process.exitCode === null) process.kill('SIGKILL');
});

afterAll(async () => {
  try {
    // A pool whose client a failed test never released would wait forever: not past 5 s.
    const ended = Promise.allSettled(
      [...pools.splice(0), ...(admin ? [admin] : [])].map((pool) => pool.end()),
    );
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  } finally {
    server?.stop();
  }
});

/** A pool of its own, as each receiver process has. */
function newPool(max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

async function openStore(schema: string, max = 4): Promise<PostgresTxStore> {
  return createPostgresTxStore(newPool(max), { schema });
}

/** Starts a process that opens a store, does `mode` and hangs; resolves with its owner and delivery id. */
function runChild(schema: string, mode: 'accept' | 'save', delivery: unknown) {
  const process = spawn(
    globalThis.process.execPath,
    [child, dist, url, schema, mode, JSON.stringify(delivery)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(process);
  let stderr = '';
  process.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<{ owner: number; id: string; process: ChildProcess }>((resolve, reject) => {
    process.stdout
      .setEncoding('utf8')
      .once('data', (line: string) => resolve({ ...JSON.parse(line), process }));
    process.once('exit', (code) => reject(new Error(`the child exited ${code}: ${stderr}`)));
  });
}

/** The first key of a schema's owner locks, as pg_locks shows it (`classid`: the int4 read as unsigned). */
async function lockClass(schema: string): Promise<number> {
  const { rows } = await admin.query(postgresTxStoreSql(schema).lockNamespace);
  return rows[0].namespace >>> 0;
}

/** Waits until no session holds the owner's lock: PostgreSQL noticed its connection is gone. */
async function ownerGone(schema: string, owner: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  const classid = await lockClass(schema);
  for (;;) {
    const { rows } = await admin.query(
      "SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2",
      [classid, owner],
    );
    if (rows[0].held === 0) return;
    if (Date.now() > deadline) throw new Error(`owner ${owner} still holds its lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(skipped('postgresql'))('createPostgresTxStore: the TxStore contract', () => {
  txStoreContract(async () => {
    const schema = freshSchema();
    const open: PostgresTxStore[] = [];
    return {
      async open() {
        const store = await openStore(schema);
        open.push(store);
        return store;
      },
      // Its session ends, as when its process dies (the SIGKILL case is below).
      crash: (store: TxStore) => (store as PostgresTxStore).close(),
      closeAll: async () => {
        await Promise.all(open.map((store) => store.close()));
      },
    };
  });
});

describe.skipIf(skipped('postgresql'))('createPostgresTxStore', () => {
  it('creates its tables once when four stores open at once, and opening again changes nothing', async () => {
    const schema = freshSchema();
    const stores = await Promise.all([1, 2, 3, 4].map(() => openStore(schema)));
    const { rows } = await admin.query(`SELECT version FROM ${schema}.blockwire_schema_version`);
    const versions = postgresTxStoreSql().migrations.map((_, index) => ({ version: index + 1 }));
    expect(rows).toEqual(versions);
    const tables = await admin.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      'blockwire_bitcoin_deliveries',
      'blockwire_bitcoin_txs',
      'blockwire_schema_version',
    ]);
    const owners = await Promise.all(stores.map((store) => store.owner()));
    expect(new Set(owners).size).toBe(4);
    const again = await openStore(schema);
    expect((await admin.query(`SELECT version FROM ${schema}.blockwire_schema_version`)).rows).toEqual(
      versions,
    );
    await Promise.all([...stores, again].map((store) => store.close()));
  });

  it('refuses tables written by a newer version, saying so', async () => {
    const schema = freshSchema();
    await (await openStore(schema)).close();
    await admin.query(`INSERT INTO ${schema}.blockwire_schema_version (version) VALUES (99)`);
    await expect(openStore(schema)).rejects.toThrow(/version 99, newer than this @blockwire\/streams knows/);
  });

  it('reports each change once, with its true `from`, when 16 connections apply the same deliveries at once', async () => {
    const schema = freshSchema();
    const stores = await Promise.all(Array.from({ length: 16 }, () => openStore(schema, 2)));
    const txids = Array.from({ length: 300 }, (_, i) => txidOf(1000 + i));
    const record = (txid: string, stage: BitcoinDeliveryStage) => ({
      txid,
      stage,
      tx: bitcoinDelivery(stage, [txid]).transactions[0]!,
      block: { height: stage === 'mempool' ? '0' : '870000', hash: stage === 'mempool' ? 'mempool' : 'h' },
      streamId: 's',
      firstSeenAt: 1,
      updatedAt: 1,
    });
    // Every stage of every txid, batched 30 txids to a delivery as blocks batch them, in a
    // different order on each connection, all at once.
    const batches = BITCOIN_DELIVERY_STAGES.flatMap((stage) =>
      Array.from({ length: 10 }, (_, b) =>
        txids.slice(b * 30, b * 30 + 30).map((txid) => record(txid, stage)),
      ),
    );
    const moves: RecordedChange[] = (
      await Promise.all(
        stores.flatMap((store, s) =>
          batches.map((_, b) => store.advance(batches[(b * 7 + s * 5) % batches.length]!)),
        ),
      )
    ).flat();
    for (const txid of txids) {
      const told = moves.filter((move) => move.txid === txid).sort((a, b) => rank(a.to) - rank(b.to));
      expect(told[0]!.from, txid).toBeNull();
      for (let k = 1; k < told.length; k++) {
        expect(told[k]!.from, txid).toBe(told[k - 1]!.to);
        expect(rank(told[k]!.to)).toBeGreaterThan(rank(told[k - 1]!.to));
      }
      expect(told.at(-1)!.to).toBe('confirmed');
    }
    const { rows } = await admin.query(
      `SELECT stage, count(*)::int AS n FROM ${schema}.blockwire_bitcoin_txs GROUP BY stage`,
    );
    expect(rows).toEqual([{ stage: 'confirmed', n: txids.length }]);
    await Promise.all(stores.map((store) => store.close()));
  }, 60_000);

  it('takes over only the deliveries of owners that are gone: a SIGKILLed process, a closed store — never a live one', async () => {
    const schema = freshSchema();
    const live = await openStore(schema);
    const liveTracker = createBitcoinTxTracker({ store: live });
    const handling = await liveTracker.accept(bitcoinDelivery('mempool', [txidOf(1)]));

    const killed = await runChild(schema, 'accept', bitcoinDelivery('mempool', [txidOf(2)]));
    const unapplied = await runChild(schema, 'save', bitcoinDelivery('in-block', [txidOf(3)]));
    const closed = await openStore(schema);
    const closedId = await createBitcoinTxTracker({ store: closed })
      .accept(bitcoinDelivery('mempool', [txidOf(4)]))
      .then((accepted) => accepted.deliveryId);
    await closed.close();
    killed.process.kill('SIGKILL');
    unapplied.process.kill('SIGKILL');
    await ownerGone(schema, killed.owner);
    await ownerGone(schema, unapplied.owner);

    const restarted = await openStore(schema);
    const tracker = createBitcoinTxTracker({ store: restarted });
    const resumed = await tracker.resumeDeliveries();
    expect(resumed.map((d) => d.deliveryId).sort()).toEqual([killed.id, unapplied.id, closedId].sort());
    expect(resumed.map((d) => d.changes.map((c) => `${c.txid.slice(-1)}:${c.from}>${c.to}`)).sort()).toEqual([
      ['2:null>mempool'],
      ['3:null>in-block'],
      ['4:null>mempool'],
    ]);
    // The live store's delivery stayed its own, and it still settles it.
    expect((await live.listDeliveries()).map((d) => d.id)).toEqual([handling.deliveryId]);
    await liveTracker.settle(handling.deliveryId);
    for (const delivery of resumed) await tracker.settle(delivery.deliveryId);
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM ${schema}.blockwire_bitcoin_deliveries`,
    );
    expect(rows[0].n).toBe(0);
    await Promise.all([live.close(), restarted.close()]);
  }, 30_000);

  it('lets a running receiver take over the deliveries of one that died (resumeEveryMs), and never its own in flight', async () => {
    const schema = freshSchema();
    const store = await openStore(schema);
    const told: TxChange[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = createWebhookHandler({
      secret: 's',
      tracker: createBitcoinTxTracker({ store }),
      resumeEveryMs: 20,
      onBitcoin: async (payload, { changes }) => {
        told.push(...(changes ?? []));
        if (payload.transactions[0]!.txid === txidOf(21)) await slow;
      },
    });
    try {
      // Its own delivery, whose callback is still running while the looks go on.
      const body = JSON.stringify(bitcoinDelivery('mempool', [txidOf(21)]));
      expect(
        (await handler({ headers: { 'x-signature': await signBody(body, 's') }, rawBody: body })).status,
      ).toBe(200);
      const dead = await runChild(schema, 'accept', bitcoinDelivery('mempool', [txidOf(22)]));
      dead.process.kill('SIGKILL');
      await expect
        .poll(() => told.map((c) => c.txid).sort(), { timeout: 10_000 })
        .toEqual([txidOf(21), txidOf(22)]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(told).toHaveLength(2);
    } finally {
      release();
      await handler.close();
    }
    expect(await store.listDeliveries()).toEqual([]);
    await store.close();
  }, 20_000);

  it('settles a delivery inside your transaction: gone with your writes on COMMIT, kept on ROLLBACK', async () => {
    const schema = freshSchema();
    const store = await openStore(schema);
    const tracker = createBitcoinTxTracker({ store });
    await admin.query(`CREATE TABLE ${schema}.credits (txid text NOT NULL)`);
    const work = async (deliveryId: string, txid: string, end: 'COMMIT' | 'ROLLBACK') => {
      const client = await admin.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${schema}.credits (txid) VALUES ($1)`, [txid]);
        await store.settleWithin(client, deliveryId);
        await client.query(end);
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    };
    const kept = await tracker.accept(bitcoinDelivery('mempool', [txidOf(31)]));
    const gone = await tracker.accept(bitcoinDelivery('mempool', [txidOf(32)]));
    await work(kept.deliveryId!, txidOf(31), 'ROLLBACK');
    await work(gone.deliveryId!, txidOf(32), 'COMMIT');
    await tracker.settle(gone.deliveryId); // what the handler does next: nothing left to delete
    expect((await store.listDeliveries()).map((d) => d.id)).toEqual([kept.deliveryId]);
    // A second run of the same callback (another receiver took the delivery over) cannot commit.
    await expect(work(gone.deliveryId!, txidOf(32), 'COMMIT')).rejects.toThrow(/settled already/);
    expect((await admin.query(`SELECT txid FROM ${schema}.credits`)).rows).toEqual([{ txid: txidOf(32) }]);
    await expect(store.settleWithin(undefined as never, '1')).rejects.toThrow(/`client`/);
    await store.close();
  });

  it('asks its owner connection one statement at a time when 20 deliveries arrive at once (pg 9 refuses a second)', async () => {
    const pool = newPool();
    let most = 0;
    const connect = pool.connect.bind(pool);
    // Counts the promise-form statements in flight on each client the store connects itself (its
    // owner session among them); pg-pool's own callback-form calls pass through untouched.
    const watched = async (...args: unknown[]) => {
      if (args.length > 0) return (connect as (...args: unknown[]) => unknown)(...args);
      const client = await connect();
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      let inFlight = 0;
      Object.assign(client, {
        query: (...args: unknown[]) => {
          if (args.some((arg) => typeof arg === 'function')) return query(...args);
          inFlight++;
          most = Math.max(most, inFlight);
          return (query(...args) as Promise<unknown>).finally(() => inFlight--);
        },
      });
      return client;
    };
    Object.assign(pool, { connect: watched });
    const store = await createPostgresTxStore(pool, { schema: freshSchema() });
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.saveDelivery(MEMPOOL_DELIVERY, i)),
    );
    expect(new Set(ids).size).toBe(20);
    expect(most).toBe(1);
    await store.close();
  });

  it('goes on under a new owner when its session is cut, and another store takes over what it left', async () => {
    const schema = freshSchema();
    const store = await openStore(schema);
    const before = await store.owner();
    const events: StoreEvent[] = [];
    const listen = (message: unknown) => events.push(message as StoreEvent);
    subscribe(WEBHOOK_CHANNELS.store, listen);
    const left = await store.saveDelivery(MEMPOOL_DELIVERY, 1);
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2",
      [await lockClass(schema), before],
    );
    await ownerGone(schema, before);
    await expect.poll(async () => store.owner().catch(() => before), { timeout: 5_000 }).not.toBe(before);
    const next = await store.saveDelivery(MEMPOOL_DELIVERY, 2);
    expect((await store.listDeliveries()).map((d) => d.id)).toEqual([left, next]);
    await store.close();
    unsubscribe(WEBHOOK_CHANNELS.store, listen);
    // What an operator alerts on: the session lost, the new owner taking the old one's deliveries, back.
    const owner = events.find((event) => event.event === 'connection-regained')?.owner;
    expect(owner).not.toBe(before);
    expect(events).toEqual([
      { store: 'postgres', event: 'connection-lost', owner: before },
      { store: 'postgres', event: 'takeover', owner, from: before },
      { store: 'postgres', event: 'connection-regained', owner, from: before },
    ]);
  });

  it('keeps a healthy receiver alive when the server ends idle sessions (idle_session_timeout 300 ms): same owner, lock held, nothing taken over', async () => {
    const schema = freshSchema();
    const idlePool = new pg.Pool({ connectionString: url, max: 3, options: '-c idle_session_timeout=300' });
    idlePool.on('error', () => undefined); // its idle connections do end, as the server says
    pools.push(idlePool);
    const store = await createPostgresTxStore(idlePool, { schema });
    const other = await openStore(schema);
    const owner = await store.owner();
    const id = await store.saveDelivery(MEMPOOL_DELIVERY, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await other.listDeliveries()).toEqual([]); // not taken over: its owner is alive
    expect(await store.owner()).toBe(owner);
    expect((await store.listDeliveries()).map((d) => d.id)).toEqual([id]);
    // Its pool's other connections were ended meanwhile; its statements go on over new ones.
    expect(await store.advance([recordOf(txidOf(41))], id)).toEqual([
      { txid: txidOf(41), from: null, to: 'mempool' },
    ]);
    await Promise.all([store.close(), other.close()]);
  });

  it('tells every run of a taken-over delivery the changes it made, so whichever run commits carries them', async () => {
    const schema = freshSchema();
    const [a, b] = [await openStore(schema), await openStore(schema)];
    await admin.query(`CREATE TABLE ${schema}.credits (txid text NOT NULL, stage text NOT NULL)`);
    // A writes a delivery, then its owner session ends while A lives and goes on with it (a
    // restart, a pooler, an idle timeout): its owner id is one whose lock nobody holds.
    const id = await a.saveDelivery(bitcoinDelivery('mempool', [txidOf(51)]), 1);
    await admin.query(`UPDATE ${schema}.blockwire_bitcoin_deliveries SET owner = 999999 WHERE id = $1`, [id]);
    // B takes it over, applies it first, and runs its callback with the change.
    const [resumed] = await createBitcoinTxTracker({ store: b }).resumeDeliveries();
    expect(resumed?.deliveryId).toBe(id);
    const runB = resumed!.changes.map(({ txid, from, to }) => ({ txid, from, to }));
    expect(runB).toEqual([{ txid: txidOf(51), from: null, to: 'mempool' }]);
    // A's own move comes after B's: it moves nothing, and is still told the change.
    const runA = await a.advance([recordOf(txidOf(51))], id);
    expect(runA).toEqual(runB);
    // A's run commits first; B's (when it ran) is refused and rolls back. The change is told once.
    const commit = async (changes: RecordedChange[]) => {
      const client = await admin.connect();
      try {
        await client.query('BEGIN');
        for (const { txid, to } of changes) {
          await client.query(`INSERT INTO ${schema}.credits VALUES ($1, $2)`, [txid, to]);
        }
        await b.settleWithin(client, id);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    };
    await commit(runA);
    await expect(commit(runB)).rejects.toThrow(/settled already/);
    expect((await admin.query(`SELECT txid, stage FROM ${schema}.credits`)).rows).toEqual([
      { txid: txidOf(51), stage: 'mempool' },
    ]);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps the locks of two schemas apart, even schemas whose names hash alike (tenant_46448, tenant_208282)', async () => {
    const opened = (schema: string) =>
      Promise.race([
        openStore(schema),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${schema}: createPostgresTxStore hung`)), 10_000),
        ),
      ]);
    const first = await opened('tenant_46448');
    const second = await opened('tenant_208282');
    expect([await first.owner(), await second.owner()]).toEqual([1, 1]);
    // A delivery of one schema's live owner is never taken for the other's.
    const id = await first.saveDelivery(MEMPOOL_DELIVERY, 1);
    const third = await opened('tenant_46448');
    expect(await third.listDeliveries()).toEqual([]);
    expect((await first.listDeliveries()).map((d) => d.id)).toEqual([id]);
    await Promise.all([first.close(), second.close(), third.close()]);
  }, 30_000);

  it('stores a signed delivery carrying U+0000 and lone surrogates as it came, answers 200 as SQLite does, and leaves no failed row', async () => {
    const schema = freshSchema();
    const store = await openStore(schema);
    const told: TxChange[] = [];
    const handler = createWebhookHandler({
      secret: 's',
      tracker: createBitcoinTxTracker({ store }),
      onBitcoin: (_payload, { changes }) => {
        told.push(...(changes ?? []));
      },
    });
    const delivery = bitcoinDelivery('mempool', [txidOf(61)]);
    const tx = delivery.transactions[0]! as Record<string, unknown>;
    tx.memo = 'nul \u0000 here, a lone \ud800 and \udfff, a pair \ud83d\ude00';
    const body = JSON.stringify(delivery);
    const signed = async () =>
      (await handler({ headers: { 'x-signature': await signBody(body, 's') }, rawBody: body })).status;
    expect(await signed()).toBe(200);
    await handler.idle();
    expect(told.map((change) => change.to)).toEqual(['mempool']);
    expect((await store.get(txidOf(61)))?.tx).toEqual(tx);
    expect(await signed()).toBe(200); // the service's retry: a duplicate, no change
    await handler.close();
    expect(told).toHaveLength(1);
    expect(await store.listDeliveries()).toEqual([]);
    // A txid PostgreSQL cannot hold in a column: 200 (the service would retry a 500 forever), one failed row.
    const bad = JSON.stringify(bitcoinDelivery('mempool', [`${txidOf(62)}\u0000`]));
    const errors: unknown[] = [];
    const strict = createWebhookHandler({
      secret: 's',
      tracker: createBitcoinTxTracker({ store }),
      onError: (error) => {
        errors.push(error);
      },
    });
    const answer = await strict({ headers: { 'x-signature': await signBody(bad, 's') }, rawBody: bad });
    await strict.close();
    expect(answer.status).toBe(200);
    expect(String(errors[0])).toMatch(/txid: holds U\+0000/);
    expect(await store.listDeliveries()).toMatchObject([{ state: 'failed' }]);
    await store.close();
  });

  it('refuses the schemas PostgreSQL keeps for itself, up front and naming `schema`', async () => {
    for (const schema of ['information_schema', 'pg_catalog', 'pg_temp', 'pg_temp_3', 'pg_toast', 'pg_x']) {
      await expect(openStore(schema)).rejects.toThrow(
        new RegExp(`schema: "${schema}" is reserved by PostgreSQL`),
      );
    }
    const { rows } = await admin.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE 'blockwire_%' AND table_schema IN ('information_schema', 'pg_catalog')",
    );
    expect(rows[0].n).toBe(0);
  });

  it('opens from a connection string, and ends the pool it made on close', async () => {
    const schema = freshSchema();
    const store = await createPostgresTxStore(`${url}?application_name=${schema}`, { schema });
    expect(await store.put(recordOf(txidOf(7)))).toBe(true);
    const connections = async () =>
      (
        await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
          schema,
        ])
      ).rows[0].n;
    expect(await connections()).toBeGreaterThan(0);
    await store.close();
    await expect(store.saveDelivery({}, 1)).rejects.toThrow(/closed/);
    await expect.poll(connections, { timeout: 5_000 }).toBe(0);
  });

  it('names `schema` when it is not a plain name, and `max` when the pool is too small, before connecting', async () => {
    await expect(createPostgresTxStore(url, { schema: 'x; DROP TABLE y' })).rejects.toThrow(
      /schema: must be lowercase/,
    );
    await expect(createPostgresTxStore(newPool(1))).rejects.toThrow(
      /at least 2 connections \(`max`\), not 1/,
    );
    expect(() => postgresTxStoreSql('Bad')).toThrow(/schema: must be lowercase/);
  });
});

function recordOf(txid: string) {
  return {
    txid,
    stage: 'mempool' as const,
    tx: MEMPOOL_DELIVERY.transactions[0]!,
    block: { height: '0', hash: 'mempool' },
    streamId: 's',
    firstSeenAt: 1,
    updatedAt: 1,
  };
}

describe.skipIf(skipped('postgresql'))('the README section on PostgreSQL', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const section = (() => {
    const start = readme.indexOf('### Several receivers on one PostgreSQL');
    return readme.slice(start, readme.indexOf('\n### ', start + 1));
  })();
  const blocks = (language: string) =>
    [...section.matchAll(new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\n\`\`\``, 'g'))].map((m) => m[1]);

  it('quotes the SQL the store runs, statement for statement', () => {
    const sql = postgresTxStoreSql();
    const end = (statement: string) => `${statement};`;
    expect(blocks('sql')).toEqual([
      [
        'BEGIN;',
        ...sql.prepare.map(end),
        '-- then each migration above that version, and its number:',
        ...sql.migrations.flatMap((migration, index) => [
          `-- migration ${index + 1}:`,
          migration,
          end(sql.recordVersion),
        ]),
        'COMMIT;',
      ].join('\n'),
      [sql.lockNamespace, sql.newOwner, sql.lockOwner].map(end).join('\n'),
      end(sql.advance),
      [
        end(sql.otherOwners),
        '-- for each of them:',
        end(sql.tryLockOwner),
        '-- when it was free (that owner is gone):',
        end(sql.takeOver),
        end(sql.unlockOwner),
      ].join('\n'),
      [
        sql.saveDelivery,
        sql.updateDelivery,
        sql.deleteDelivery,
        sql.listDeliveries,
        sql.get,
        sql.list,
        sql.put,
      ]
        .map(end)
        .join('\n'),
    ]);
  });

  /** Runs the README's receiver as written, in a folder of its own; resolves once it answers. */
  async function startReadmeReceiver() {
    const [source] = blocks('ts');
    const dir = mkdtempSync(join(tmpdir(), 'blockwire-readme-postgres-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    mkdirSync(join(dir, 'node_modules', '@blockwire'), { recursive: true });
    const streams = join(import.meta.dirname, '..', '..');
    symlinkSync(realpathSync(streams), join(dir, 'node_modules', '@blockwire', 'streams'), 'dir');
    symlinkSync(realpathSync(join(streams, 'node_modules', 'pg')), join(dir, 'node_modules', 'pg'), 'dir');
    writeFileSync(join(dir, 'receiver.ts'), source!);
    const port = await freePort();
    const receiver = spawn(process.execPath, ['receiver.ts'], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: url, BLOCKWIRE_WEBHOOK_SECRET: 'readme', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(receiver);
    let output = '';
    receiver.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    receiver.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => receiver.once('exit', (code) => resolve(code)));
    const post = async (body: string, signature: string) =>
      fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'x-signature': signature }, body });
    const deliver = async (txid: string) => {
      const body = JSON.stringify(bitcoinDelivery('mempool', [txid]));
      return (await post(body, await signBody(body, 'readme'))).status;
    };
    await expect
      .poll(
        () =>
          post(JSON.stringify(MEMPOOL_DELIVERY), '').then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 20_000 },
      )
      .toBe(401);
    return {
      receiver,
      output: () => output,
      exited,
      deliver,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  const unsettled = async () =>
    (await admin.query('SELECT count(*)::int AS n FROM public.blockwire_bitcoin_deliveries')).rows[0].n;

  it('has a receiver that runs as written: a delivery reported, settled in its transaction, a clean SIGTERM', async () => {
    const { receiver, output, exited, deliver, remove } = await startReadmeReceiver();
    try {
      expect(await deliver(txidOf(77))).toBe(200);
      await expect.poll(output, { timeout: 10_000 }).toContain(`${txidOf(77)} null → mempool`);
      receiver.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
      expect(await unsettled()).toBe(0);
      expect(
        (await admin.query('SELECT stage FROM public.blockwire_bitcoin_txs WHERE txid = $1', [txidOf(77)]))
          .rows,
      ).toEqual([{ stage: 'mempool' }]);
    } finally {
      remove();
    }
  }, 60_000);

  it('has a receiver that survives PostgreSQL restarting mid-callback (pg_ctl restart -m fast) and goes on', async () => {
    const { receiver, output, exited, deliver, remove } = await startReadmeReceiver();
    const holder = await admin.connect();
    holder.on('error', () => undefined);
    try {
      // A callback caught mid-transaction: its INSERT waits for our lock on the table.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE public.payments IN EXCLUSIVE MODE');
      expect(await deliver(txidOf(78))).toBe(200);
      const waiting = async () =>
        (
          await admin.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO payments%'",
          )
        ).rows[0].n;
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
      await server.restart();
      holder.release(true);
      expect(await deliver(txidOf(79))).toBe(200);
      // The interrupted delivery runs again at the receiver's next look (resumeEveryMs, 10 s).
      await expect.poll(output, { timeout: 30_000 }).toContain(`${txidOf(79)} null → mempool`);
      await expect.poll(output, { timeout: 30_000 }).toContain(`${txidOf(78)} null → mempool`);
      expect(receiver.exitCode, output()).toBeNull();
      receiver.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
      expect(await unsettled()).toBe(0);
      const { rows } = await admin.query(
        'SELECT txid FROM public.payments WHERE txid = ANY($1) ORDER BY txid',
        [[txidOf(78), txidOf(79)]],
      );
      expect(rows).toEqual([{ txid: txidOf(78) }, { txid: txidOf(79) }]);
    } finally {
      remove();
    }
  }, 90_000);
});
