import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bitcoinDelivery, MEMPOOL_DELIVERY, txidOf } from './__fixtures__/bitcoin.js';
import { txStoreContract } from './__fixtures__/store-contract.js';
import { BITCOIN_DELIVERY_STAGES, type BitcoinDeliveryStage, bitcoinStageRank } from './payloads.js';
import { createSqliteTxStore, type SqliteTxStore } from './sqlite-store.js';
import { createBitcoinTxTracker } from './tracker.js';

const dist = join(import.meta.dirname, '..', '..', 'dist');
const child = join(import.meta.dirname, '__fixtures__', 'sqlite-child.mjs');
const dir = mkdtempSync(join(tmpdir(), 'blockwire-sqlite-'));
const children: ChildProcess[] = [];
let nextDb = 0;
const freshDb = () => join(dir, `txs-${nextDb++}.sqlite`);

afterEach(() => {
  for (const process of children.splice(0)) if (process.exitCode === null) process.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the receiver in its own process; resolves when it prints `waitFor` (then kills it) or exits. */
function runReceiver(
  dbPath: string,
  mode: string,
  deliveries: unknown[],
  waitFor?: string,
  stopAfter?: number,
) {
  const file = join(dir, `deliveries-${nextDb++}.json`);
  writeFileSync(file, JSON.stringify(deliveries));
  const args = ['--no-warnings', child, join(dist, 'webhooks.cjs'), dbPath, mode, file];
  if (stopAfter !== undefined) args.push(String(stopAfter));
  const process = spawn(globalThis.process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(process);
  return new Promise<{ lines: string[]; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const lines: string[] = [];
    let stderr = '';
    process.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    process.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      lines.push(...chunk.split('\n').filter(Boolean));
      if (waitFor && lines.includes(waitFor)) process.kill('SIGKILL');
    });
    process.on('error', reject);
    process.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`receiver exited ${code}: ${stderr}`));
      else resolve({ lines, signal });
    });
  });
}

const stageAt = (deliveries: Array<ReturnType<typeof bitcoinDelivery>>, txid: string) => {
  let best = -1;
  for (const d of deliveries) {
    if (!d.transactions.some((tx) => tx.txid === txid)) continue;
    const stage: BitcoinDeliveryStage = d.confirmed
      ? 'confirmed'
      : d.block.hash === 'mempool'
        ? 'mempool'
        : 'in-block';
    best = Math.max(best, bitcoinStageRank(stage));
  }
  return best < 0 ? undefined : BITCOIN_DELIVERY_STAGES[best];
};

describe('createSqliteTxStore', () => {
  it('resumes where a receiver killed mid-stream stopped, and finishes right when the rest is redelivered', async () => {
    const txids = [1, 2, 3, 4, 5, 6].map(txidOf);
    const stream = [
      bitcoinDelivery('mempool', txids.slice(0, 4)),
      bitcoinDelivery('in-block', txids.slice(0, 2)),
      bitcoinDelivery('mempool', txids.slice(4)),
      bitcoinDelivery('confirmed', txids.slice(0, 1)),
      bitcoinDelivery('in-block', txids.slice(2, 5)),
      bitcoinDelivery('confirmed', txids.slice(1, 5)),
    ];
    const dbPath = freshDb();
    const run = await runReceiver(dbPath, 'ingest', stream, 'ingested 3', 3);
    expect(run.signal).toBe('SIGKILL');

    // A new process (this one) opens the same file: the first three deliveries are all there.
    const store = createSqliteTxStore(dbPath);
    const tracker = createBitcoinTxTracker({ store });
    for (const txid of txids)
      expect((await tracker.get(txid))?.stage).toBe(stageAt(stream.slice(0, 3), txid));
    expect(await tracker.pendingDeliveries()).toEqual([]);

    // The service retries everything it did not get a 200 for, and some it did.
    const changes = [];
    for (const delivery of stream.slice(2)) changes.push(...(await tracker.ingest(delivery)));
    expect(changes.map((c) => `${c.txid.slice(-1)}:${c.from}>${c.to}`)).toEqual([
      '1:in-block>confirmed',
      '3:mempool>in-block',
      '4:mempool>in-block',
      '5:mempool>in-block',
      '2:in-block>confirmed',
      '3:in-block>confirmed',
      '4:in-block>confirmed',
      '5:in-block>confirmed',
    ]);
    for (const txid of txids) expect((await tracker.get(txid))?.stage).toBe(stageAt(stream, txid));
    store.close();
  });

  it('keeps a delivery accepted just before a crash, for reprocessing', async () => {
    const dbPath = freshDb();
    await runReceiver(dbPath, 'accept', [MEMPOOL_DELIVERY], 'accepted');
    const store = createSqliteTxStore(dbPath);
    const tracker = createBitcoinTxTracker({ store });
    expect((await tracker.get(txidOf(1)))?.stage).toBe('mempool');
    const pending = await tracker.pendingDeliveries();
    expect(pending).toMatchObject([{ state: 'applied', payload: MEMPOOL_DELIVERY }]);
    await tracker.settle(pending[0]!.id);
    expect(await tracker.pendingDeliveries()).toEqual([]);
    store.close();
  });

  it('applies a delivery written just before a crash when the tracker starts again', async () => {
    const dbPath = freshDb();
    const run = await runReceiver(dbPath, 'crash-before-apply', [MEMPOOL_DELIVERY]);
    expect(run.signal).toBe('SIGKILL');
    const store = createSqliteTxStore(dbPath);
    expect(store.listDeliveries!({ state: 'received' })).toHaveLength(1);
    expect(store.get(txidOf(1))).toBeUndefined();
    const tracker = createBitcoinTxTracker({ store });
    const recovered = await tracker.recover();
    expect(recovered.map((c) => [c.txid, c.to])).toEqual([[txidOf(1), 'mempool']]);
    // Its callback never ran: it stays listed for reprocessing until settled.
    const pending = await tracker.pendingDeliveries();
    expect(pending).toMatchObject([{ state: 'applied', payload: MEMPOOL_DELIVERY }]);
    expect(await tracker.ingest(MEMPOOL_DELIVERY)).toEqual([]);
    await tracker.settle(pending[0]!.id);
    expect(await tracker.pendingDeliveries()).toEqual([]);
    store.close();
  });

  it('lists a delivery a crash left unapplied as applied, so the restart loop of the README loses nothing', async () => {
    const dbPath = freshDb();
    await runReceiver(dbPath, 'crash-before-apply', [MEMPOOL_DELIVERY]);
    const store = createSqliteTxStore(dbPath);
    const tracker = createBitcoinTxTracker({ store });
    // The restart loop: reprocess, then settle each pending delivery.
    const pending = await tracker.pendingDeliveries();
    expect(pending).toMatchObject([{ state: 'applied', payload: MEMPOOL_DELIVERY }]);
    for (const delivery of pending) await tracker.settle(delivery.id);
    expect((await tracker.get(txidOf(1)))?.stage).toBe('mempool');
    store.close();
  });

  it('uses WAL', () => {
    const dbPath = freshDb();
    createSqliteTxStore(dbPath).close();
    const mode = execFileSync(
      process.execPath,
      [
        '--no-warnings',
        '-e',
        `const {DatabaseSync}=require('node:sqlite');console.log(new DatabaseSync(${JSON.stringify(dbPath)}).prepare('PRAGMA journal_mode').get().journal_mode)`,
      ],
      { encoding: 'utf8' },
    );
    expect(mode.trim()).toBe('wal');
  });

  it('opens a file written before deliveries kept their changes, and keeps them from then on', async () => {
    const dbPath = freshDb();
    const script = `
      const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(${JSON.stringify(dbPath)});
      db.exec("CREATE TABLE bitcoin_deliveries (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at INTEGER NOT NULL, state TEXT NOT NULL, error TEXT, payload TEXT NOT NULL)");
      db.exec("INSERT INTO bitcoin_deliveries (received_at, state, payload) VALUES (1, 'applied', '{}')");
      db.close();`;
    execFileSync(process.execPath, ['--no-warnings', '-e', script]);
    const store = createSqliteTxStore(dbPath);
    expect(store.listDeliveries()).toEqual([{ id: '1', receivedAt: 1, state: 'applied', payload: {} }]);
    const changes = [{ txid: txidOf(1), from: null, to: 'mempool' as const }];
    store.updateDelivery('1', 'applied', undefined, changes);
    store.updateDelivery('1', 'failed', 'boom');
    expect(store.listDeliveries()).toEqual([
      { id: '1', receivedAt: 1, state: 'failed', error: 'boom', payload: {}, changes },
    ]);
    store.close();
  });
});

describe('createSqliteTxStore: the TxStore contract', () => {
  // Each store its own connection to one file, as each worker process has.
  txStoreContract(async () => {
    const dbPath = freshDb();
    const open: SqliteTxStore[] = [];
    return {
      async open() {
        const store = createSqliteTxStore(dbPath);
        open.push(store);
        return store;
      },
      async crash(store) {
        (store as SqliteTxStore).close();
        open.splice(open.indexOf(store as SqliteTxStore), 1);
      },
      async closeAll() {
        for (const store of open.splice(0)) store.close();
      },
    };
  });
});

describe('the built package', () => {
  it('keeps the node: prefix of node:sqlite (a bare "sqlite" is not a builtin)', () => {
    // The entries share chunks: the store's code sits in one of them, once per format.
    const built = readdirSync(dist).filter((file) => /\.c?js$/.test(file));
    for (const extension of ['.js', '.cjs']) {
      const files = built.filter((file) => file.endsWith(extension));
      const code = files.map((file) => readFileSync(join(dist, file), 'utf8'));
      expect(
        code.some((text) => /["']node:sqlite["']/.test(text)),
        extension,
      ).toBe(true);
    }
    for (const file of built) {
      const code = readFileSync(join(dist, file), 'utf8');
      expect(code, file).not.toMatch(/(require\(|from |import\()\s*["']sqlite["']/);
    }
  });

  it('loads node:sqlite only when an SQLite store is created', () => {
    const script = `
      const kit = require(${JSON.stringify(join(dist, 'index.cjs'))});
      const loaded = () => process.moduleLoadList.some((m) => /\\bsqlite\\b/.test(m));
      const before = loaded();
      kit.createSqliteTxStore(':memory:').close();
      process.stdout.write(JSON.stringify({ before, after: loaded() }));`;
    const out = execFileSync(process.execPath, ['--no-warnings', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ before: false, after: true });
  });
});
