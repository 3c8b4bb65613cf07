/**
 * The trigger's repeat filter on n8n's deduplication store, modelled as n8n 2.41 implements it
 * (read the node's key list, write it all back, no lock): exact for many executions at once in one
 * process; across processes it loses records, which is why queue mode takes the PostgreSQL store
 * (trigger-postgres-repeats.test.ts, on a real PostgreSQL).
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';
import { dropRepeats, repeatKey } from '../nodes/BlockwireTrigger/deliveries';
import { REPEAT_HISTORY } from '../nodes/BlockwireTrigger/repeats';
import { NODE, processedDataStore, triggerExecuteContext } from './support/n8n-context';
import { txid } from './support/payloads';

const bitcoin = { mode: 'bitcoin' };
const item = (n: number, stage = 'mempool') => ({ txid: txid(n), stage });

/** A fresh copy of the repeat filter's module: what another n8n process would load. */
async function anotherProcess() {
  vi.resetModules();
  return (await import('../nodes/BlockwireTrigger/deliveries.ts')).dropRepeats;
}

async function run(
  filter: typeof dropRepeats,
  store: ReturnType<typeof processedDataStore>,
  items: IDataObject[],
  options: { mode?: string } = {},
) {
  const { execute, logger } = triggerExecuteContext({
    parameters: bitcoin,
    items,
    store,
    ...(options.mode ? { mode: options.mode } : {}),
  });
  const [output = []] = await filter.call(execute);
  return { emitted: output.map((entry) => entry.json.txid), logger };
}

describe('Blockwire Trigger: repeats dropped through n8n’s database', () => {
  it('records the keys in the node’s scope with n8n’s Remove Duplicates history size', async () => {
    const store = processedDataStore();
    expect((await run(dropRepeats, store, [item(1), item(2)])).emitted).toEqual([txid(1), txid(2)]);
    expect((await run(dropRepeats, store, [item(2), item(3)])).emitted).toEqual([txid(3)]);
    expect(store.calls[0]).toEqual({
      keys: [`bitcoin ${txid(1)} mempool`, `bitcoin ${txid(2)} mempool`],
      maxEntries: REPEAT_HISTORY,
    });
    expect(REPEAT_HISTORY).toBe(10_000);
  });

  it('a transaction twice in one delivery is emitted once; an item without a key passes', async () => {
    const store = processedDataStore();
    const { emitted } = await run(dropRepeats, store, [item(1), item(1), { note: 'edited test data' }]);
    expect(emitted).toEqual([txid(1), undefined]);
  });

  it('a manual (test) run records nothing and drops nothing', async () => {
    const store = processedDataStore();
    await run(dropRepeats, store, [item(1)]);
    const { emitted } = await run(dropRepeats, store, [item(1), item(2)], { mode: 'manual' });
    expect(emitted).toEqual([txid(1), txid(2)]);
    expect(store.calls).toHaveLength(1); // the production run's
  });

  it('keys: a transaction at a stage; an EVM stream’s block with its confirmed flag', () => {
    expect(repeatKey('bitcoin', { txid: 'ab', stage: 'in-block' })).toBe('bitcoin ab in-block');
    expect(repeatKey('bitcoin', { txid: 'ab' })).toBeUndefined();
    const evm = { streamId: 's1', block: { number: '7', hash: '0x07' }, confirmed: false };
    expect(repeatKey('evm', evm)).toBe('evm s1 0x07 false');
    expect(repeatKey('evm', { ...evm, block: { number: '7' } })).toBe('evm s1 7 false');
    expect(repeatKey('evm', { confirmed: true })).toBeUndefined();
  });

  it('n8n’s store loses a record when two calls overlap: what one process avoids by taking turns', async () => {
    const store = processedDataStore({ gapMs: 5 });
    await store.checkProcessedAndRecord('row', ['a']);
    await Promise.all([
      store.checkProcessedAndRecord('row', ['b']),
      store.checkProcessedAndRecord('row', ['c']),
    ]);
    expect(store.rows.get('row')).toHaveLength(2); // a and one of b, c
  });

  it('60 executions at once in one process, then their repeats: every delivery emitted once', async () => {
    const store = processedDataStore({ gapMs: 2 });
    const first = await Promise.all(Array.from({ length: 60 }, (_, n) => run(dropRepeats, store, [item(n)])));
    expect(first.flatMap((outcome) => outcome.emitted)).toHaveLength(60);
    expect(new Set(store.rows.get(`workflow-1 n:${NODE.id}`)).size).toBe(60);
    const repeats = await Promise.all(
      Array.from({ length: 60 }, (_, n) => run(dropRepeats, store, [item(n)])),
    );
    expect(repeats.flatMap((outcome) => outcome.emitted)).toEqual([]);
  });

  it('two processes recording a node’s first keys at once: the failed insert is retried, nothing lost', async () => {
    const store = processedDataStore({ gapMs: 5 });
    const [workerA, workerB] = [await anotherProcess(), await anotherProcess()];
    expect(workerA).not.toBe(workerB);
    const [a, b] = await Promise.all([run(workerA!, store, [item(1)]), run(workerB!, store, [item(2)])]);
    expect([...a.emitted, ...b.emitted]).toHaveLength(2);
    expect(store.calls).toHaveLength(3); // one of the two first inserts failed and was made again
  });

  it('a store that keeps failing fails the execution with a clear error, passing nothing on', async () => {
    const store = processedDataStore();
    store.checkProcessedAndRecord = async () => {
      throw new Error('connection terminated');
    };
    await expect(run(dropRepeats, store, [item(1)])).rejects.toThrow(
      /Could not record the deliveries in the repeat store \(n8n's database\): connection terminated/,
    );
  });
});
