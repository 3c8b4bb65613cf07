/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * The trigger's PostgreSQL repeat store on a real PostgreSQL (a cluster of its own on a free
 * 127.0.0.1 port, from Debian's package): four copies of the store — four n8n processes, each with
 * its own connection pool — claiming the same keys at the same moment get each key once in all.
 */
import { type PostgresServer, startPostgres } from '@blockwire/testing';
import { skipped } from '@blockwire/testing/skips';
import {
  NODE,
  processedDataStore,
  triggerExecuteContext,
} from 'n8n-nodes-blockwire/test/support/n8n-context';
import { txid } from 'n8n-nodes-blockwire/test/support/payloads';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlockwireTriggerPostgres } from '../nodes/BlockwireTriggerPostgres/BlockwireTriggerPostgres.node';
import {
  claimInPostgres,
  type PostgresRepeatCredentials,
  REPEATS_RETENTION_DAYS,
  REPEATS_TABLE,
} from '../nodes/BlockwireTriggerPostgres/postgres-repeats';

let postgres: PostgresServer;
let credentials: PostgresRepeatCredentials;

beforeAll(async () => {
  postgres = await startPostgres();
  postgres.createDatabase('repeats');
  credentials = { host: '127.0.0.1', port: postgres.port, database: 'repeats', user: 'postgres' };
}, 120_000);

afterAll(() => postgres?.stop());

/** A fresh copy of the store's module: what another n8n process loads, with a pool of its own. */
async function anotherProcess() {
  vi.resetModules();
  return (await import('../nodes/BlockwireTriggerPostgres/postgres-repeats.ts')).claimInPostgres;
}

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ ...credentials, ssl: false });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(skipped('postgresql'))('Blockwire Trigger: the PostgreSQL repeat store', () => {
  it('four processes creating the table at once, then claiming the same 300 keys at once: each key claimed once', async () => {
    const processes = await Promise.all([1, 2, 3, 4].map(() => anotherProcess()));
    const keys = Array.from({ length: 300 }, (_, n) => `bitcoin tx-${n} mempool`);
    const scope = { workflowId: 'wf-race', nodeId: NODE.id };
    // Each creates the table (if missing) on its first claim, all four at the same moment.
    await Promise.all(processes.map((claim, p) => claim(credentials, scope, [`warm-up ${p}`])));
    // Batch after batch of 10 keys, the four claim the same batch at the same moment, in two
    // orders (which would deadlock if the store did not sort them).
    const claimed: string[][] = processes.map(() => []);
    for (let b = 0; b < 30; b++) {
      const batch = keys.slice(b * 10, b * 10 + 10);
      const won = await Promise.all(
        processes.map((claim, p) => claim(credentials, scope, p % 2 === 0 ? batch : [...batch].reverse())),
      );
      for (const [p, set] of won.entries()) claimed[p]!.push(...set);
    }
    const all = claimed.flat();
    expect(all).toHaveLength(300);
    expect(new Set(all).size).toBe(300);
    // They really raced: the keys went to more than one of them.
    expect(claimed.filter((won) => won.length > 0).length).toBeGreaterThan(1);
    const [{ count }] = (await sql<{ count: string }>(
      `SELECT count(*) FROM ${REPEATS_TABLE} WHERE workflow_id = 'wf-race' AND key LIKE 'bitcoin %'`,
    )) as [{ count: string }];
    expect(Number(count)).toBe(300);
  }, 60_000);

  it('the trigger’s step: a delivery and its repeat on two processes, the repeat dropped', async () => {
    const [first, second] = [await anotherProcess(), await anotherProcess()];
    expect(first).not.toBe(second);
    vi.resetModules();
    const { BlockwireTriggerPostgres: Trigger } = await import(
      '../nodes/BlockwireTriggerPostgres/BlockwireTriggerPostgres.node.ts'
    );
    const trigger = new Trigger();
    const context = (items: { txid: string; stage: string }[]) =>
      triggerExecuteContext({
        parameters: { mode: 'bitcoin' },
        items,
        store: processedDataStore(), // n8n's store: must stay untouched
        workflowId: 'wf-step',
        credentials: { blockwirePostgresApi: { ...credentials } },
      }).execute;
    const delivery = [
      { txid: txid(1), stage: 'in-block' },
      { txid: txid(2), stage: 'in-block' },
    ];
    const [once] = await trigger.execute.call(context(delivery));
    expect(once?.map((item) => item.json.txid)).toEqual([txid(1), txid(2)]);
    const [again] = await trigger.execute.call(context([...delivery, { txid: txid(3), stage: 'in-block' }]));
    expect(again?.map((item) => item.json.txid)).toEqual([txid(3)]);
  });

  it('keys older than the retention are pruned; newer ones stay', async () => {
    const scope = { workflowId: 'wf-prune', nodeId: NODE.id };
    vi.resetModules();
    const claim = (await import('../nodes/BlockwireTriggerPostgres/postgres-repeats.ts')).claimInPostgres;
    await claim(credentials, scope, ['old', 'recent']);
    await sql(
      `UPDATE ${REPEATS_TABLE} SET first_seen = now() - make_interval(days => $1) WHERE workflow_id = 'wf-prune' AND key = 'old'`,
      [REPEATS_RETENTION_DAYS + 1],
    );
    vi.resetModules();
    const fresh = (await import('../nodes/BlockwireTriggerPostgres/postgres-repeats.ts')).claimInPostgres;
    expect([...(await fresh(credentials, scope, ['new']))]).toEqual(['new']);
    const rows = await sql<{ key: string }>(
      `SELECT key FROM ${REPEATS_TABLE} WHERE workflow_id = 'wf-prune' ORDER BY key`,
    );
    expect(rows.map((row) => row.key)).toEqual(['new', 'recent']);
  });

  it('the credential test connects and creates the table, or says why it cannot', async () => {
    const test = new BlockwireTriggerPostgres().methods.credentialTest.blockwirePostgresConnection;
    const call = (data: PostgresRepeatCredentials) =>
      test.call({} as never, { id: '1', name: 'store', type: 'blockwirePostgresApi', data: { ...data } });
    expect(await call(credentials)).toEqual({
      status: 'OK',
      message: 'Connected; the repeat table is ready',
    });
    const wrong = await call({ ...credentials, database: 'no_such_database', password: 'hunter2-secret' });
    expect(wrong.status).toBe('Error');
    expect(wrong.message).toMatch(/no_such_database/);
    expect(wrong.message).not.toContain('hunter2-secret');
  });

  it('claims nothing for no keys, and a wrong server fails the call', async () => {
    expect(await claimInPostgres(credentials, { workflowId: 'wf-empty', nodeId: NODE.id }, [])).toEqual(
      new Set(),
    );
    await expect(
      claimInPostgres({ ...credentials, port: 1 }, { workflowId: 'wf-down', nodeId: NODE.id }, ['k']),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
