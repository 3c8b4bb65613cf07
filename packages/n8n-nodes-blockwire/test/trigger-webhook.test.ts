import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';
import { BlockwireTrigger } from '../nodes/BlockwireTrigger/BlockwireTrigger.node';
import { dropRepeats } from '../nodes/BlockwireTrigger/deliveries';
import {
  type ProcessedDataStore,
  processedDataStore,
  triggerExecuteContext,
  webhookContext,
} from './support/n8n-context';
import {
  BLOCK,
  bitcoinDelivery,
  coinbase,
  evmDelivery,
  payment,
  SECRET,
  STREAM_ID,
  signed,
  txid,
} from './support/payloads';

const trigger = new BlockwireTrigger();
const credentials = { apiKey: 'key-123', webhookSecret: SECRET };
const bitcoinParameters = { mode: 'bitcoin', stages: ['mempool', 'in-block', 'confirmed'] };

async function deliver(
  request: { rawBody: string; headers?: Record<string, string> },
  options: {
    parameters?: IDataObject;
    staticData?: IDataObject;
    webhookSecret?: string;
    workflowId?: string;
    mode?: string;
  } = {},
) {
  const ctx = webhookContext({
    ...(options.workflowId ? { workflowId: options.workflowId } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
    parameters: options.parameters ?? bitcoinParameters,
    credentials: {
      ...credentials,
      ...(options.webhookSecret === undefined ? {} : { webhookSecret: options.webhookSecret }),
    },
    staticData: options.staticData,
    ...request,
  });
  const result = await trigger.webhook.call(ctx.webhook);
  const items = result.workflowData?.[0]?.map((item) => item.json) ?? [];
  return { ...ctx, result, items };
}

/**
 * A delivery as n8n handles it: webhook() answers it, and when that starts the workflow, the
 * trigger's execute() runs with its items against n8n's deduplication store. `emitted` is what the
 * next node gets; `started` whether an execution began at all.
 */
async function deliverAndRun(
  request: { rawBody: string; headers?: Record<string, string> },
  store: ProcessedDataStore,
  parameters: IDataObject = bitcoinParameters,
  process: { workflowId?: string; mode?: string } = {},
) {
  const delivered = await deliver(request, { parameters, ...process });
  if (!delivered.result.workflowData) return { ...delivered, started: false, emitted: [] };
  const { execute } = triggerExecuteContext({ parameters, items: delivered.items, store, ...process });
  const [output = []] = await dropRepeats.call(execute);
  return { ...delivered, started: true, emitted: output.map((item) => item.json) };
}

describe('Blockwire Trigger webhook: what starts the workflow', () => {
  it('answers the verification POST (empty, {}, or empty values; unsigned) with 200 and starts nothing', async () => {
    for (const rawBody of [
      '',
      '{}',
      JSON.stringify({ streamId: '', chainId: '', confirmed: false, transactions: [] }),
    ]) {
      const { result, response, staticData } = await deliver({ rawBody });
      expect(result, rawBody).toEqual({});
      expect(response.status).toBeUndefined();
      expect(staticData).toEqual({});
    }
  });

  it('refuses a delivery without a signature, with a forged one or signed with another secret: 401, nothing started or remembered', async () => {
    const payload = bitcoinDelivery('mempool', [payment(txid(1), 'mempool')]);
    const good = await signed(payload);
    const cases = [
      { rawBody: good.rawBody },
      { rawBody: good.rawBody, headers: { 'x-signature': `0x${'0'.repeat(64)}` } },
      await signed(payload, 'another secret'),
      // The body changed after signing (an amount raised in transit).
      { rawBody: good.rawBody.replace('0.001', '0.101'), headers: good.headers },
    ];
    for (const request of cases) {
      const { result, response, staticData } = await deliver(request);
      expect(result).toEqual({ noWebhookResponse: true });
      expect(response.status).toBe(401);
      expect(JSON.stringify(response.body)).not.toContain(SECRET);
      expect(staticData).toEqual({});
    }
  });

  it('parses nothing of an unsigned or forged delivery: a 16 MB body costs one hash at most', async () => {
    const big = JSON.stringify({ streamId: 's', chainId: '0x0', padding: 'x'.repeat(16 * 1024 * 1024) });
    const forged = { 'x-signature': `0x${'ab'.repeat(32)}` };
    for (const headers of [{}, forged]) {
      const ctx = webhookContext({ parameters: bitcoinParameters, credentials, rawBody: big, headers });
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const result = await trigger.webhook.call(ctx.webhook);
        expect(result).toEqual({ noWebhookResponse: true });
        expect(ctx.response.status).toBe(401);
        expect(parse.mock.calls.filter(([text]) => String(text).length > 1024)).toEqual([]);
      } finally {
        parse.mockRestore();
      }
    }
  });

  it('refuses every signed delivery when the credentials have no webhook secret', async () => {
    const request = await signed(bitcoinDelivery('mempool', [payment(txid(1), 'mempool')]), '');
    const { response } = await deliver(request, { webhookSecret: '' });
    expect(response.status).toBe(401);
  });

  it('emits one item per transaction with stage, block, coinbase flag, exact BTC and sats, and the raw tx', async () => {
    const tx = payment(txid(1), 'in-block');
    const reward = coinbase(txid(2));
    const { items } = await deliver(await signed(bitcoinDelivery('in-block', [reward, tx])));
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      txid: txid(2),
      isCoinbase: true,
      valueBtc: 3.16203125,
      valueSats: 316203125,
    });
    expect(items[1]).toMatchObject({
      txid: txid(1),
      stage: 'in-block',
      confirmed: false,
      blockHeight: 870000,
      blockHash: BLOCK.hash,
      isCoinbase: false,
      valueBtc: 0.00248588,
      valueSats: 248588,
      feeBtc: 0.00001412,
      feeSats: 1412,
      streamId: STREAM_ID,
      tag: 'treasury',
      tx,
    });
    expect(items[1]?.outputs).toEqual([
      {
        n: 0,
        address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
        type: 'witness_v0_keyhash',
        valueBtc: 0.001,
        valueSats: 100000,
      },
      {
        n: 1,
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        type: 'witness_v0_keyhash',
        valueBtc: 0.00148588,
        valueSats: 148588,
      },
    ]);
  });

  it('follows a transaction mempool → in-block → confirmed once per stage, dropping retried deliveries', async () => {
    const store = processedDataStore();
    const id = txid(7);
    const stages = [];
    for (const stage of ['mempool', 'mempool', 'in-block', 'in-block', 'confirmed', 'confirmed'] as const) {
      const retry = stages.filter((s) => s === stage).length;
      stages.push(stage);
      const { emitted, started } = await deliverAndRun(
        await signed(bitcoinDelivery(stage, [payment(id, stage)], retry)),
        store,
      );
      // Every signed delivery starts an execution; the repeat ends at the trigger, with nothing.
      expect(started).toBe(true);
      expect(emitted.map((item) => [item.txid, item.stage, item.blockHeight])).toEqual(
        retry === 0 ? [[id, stage, stage === 'mempool' ? null : 870000]] : [],
      );
    }
  });

  it('emits only the new transactions of a delivery that repeats some', async () => {
    const store = processedDataStore();
    await deliverAndRun(await signed(bitcoinDelivery('in-block', [payment(txid(1), 'in-block')])), store);
    const { emitted, logger } = await deliverAndRun(
      await signed(bitcoinDelivery('in-block', [payment(txid(1), 'in-block'), payment(txid(2), 'in-block')])),
      store,
    );
    expect(emitted.map((item) => item.txid)).toEqual([txid(2)]);
    expect(logger.infos).toEqual([]);
  });

  it('starts nothing for a stage that is not selected, and still emits that stage later if it is selected', async () => {
    const store = processedDataStore();
    const parameters = { mode: 'bitcoin', stages: ['confirmed'] };
    const mempool = await deliverAndRun(
      await signed(bitcoinDelivery('mempool', [payment(txid(3), 'mempool')])),
      store,
      parameters,
    );
    expect(mempool.result).toEqual({});
    expect(mempool.started).toBe(false);
    const confirmed = await deliverAndRun(
      await signed(bitcoinDelivery('confirmed', [payment(txid(3), 'confirmed')])),
      store,
      parameters,
    );
    expect(confirmed.emitted.map((item) => item.stage)).toEqual(['confirmed']);
    expect([...store.rows.values()]).toEqual([[`bitcoin ${txid(3)} confirmed`]]);
  });

  it('answers 200 and starts nothing for a signed payload that is not a Bitcoin delivery, logging why', async () => {
    const { result, response, logger } = await deliver(
      await signed({ streamId: 's', chainId: 'c', confirmed: true, block: { height: '1' } }),
    );
    expect(result).toEqual({});
    expect(response.status).toBeUndefined();
    expect(logger.warnings.join('\n')).toMatch(/not a valid bitcoin payload.*transactions/);
  });

  it('treats a confirmed delivery claiming the mempool block as invalid, not as a stage', async () => {
    const { result, logger } = await deliver(
      await signed({ ...bitcoinDelivery('mempool', [payment(txid(4), 'mempool')]), confirmed: true }),
    );
    expect(result).toEqual({});
    expect(logger.warnings.join('\n')).toMatch(/block\.hash/);
  });

  it('EVM mode: emits each delivery once per stream, block and confirmed flag', async () => {
    const store = processedDataStore();
    const parameters = { mode: 'evm' };
    const run = async (payload: unknown) =>
      (await deliverAndRun(await signed(payload), store, parameters)).emitted;
    expect(await run(evmDelivery(false))).toEqual([evmDelivery(false)]);
    expect(await run({ ...evmDelivery(false), retries: 1 })).toEqual([]);
    expect(await run(evmDelivery(true))).toHaveLength(1);
    expect(await run(evmDelivery(true, '21000001'))).toHaveLength(1);
    const forged = await deliverAndRun(
      { rawBody: JSON.stringify(evmDelivery(true, '21000002')) },
      store,
      parameters,
    );
    expect(forged.response.status).toBe(401);
    expect(forged.started).toBe(false);
  });
});

describe('Blockwire Trigger: repeats in regular mode (issue 21, point 11)', () => {
  // In regular mode the webhook and the execution run in one process: same workflow, same node.
  const txids = (emitted: IDataObject[]) => emitted.map((item) => item.txid);

  it('a delivery an execution here already passed on is answered 200 and starts no execution', async () => {
    const store = processedDataStore();
    const here = { workflowId: 'regular-mode-workflow' };
    const first = await deliverAndRun(
      await signed(bitcoinDelivery('mempool', [payment(txid(41), 'mempool')])),
      store,
      bitcoinParameters,
      here,
    );
    expect(first.started).toBe(true);
    expect(txids(first.emitted)).toEqual([txid(41)]);

    const repeat = await deliverAndRun(
      await signed(bitcoinDelivery('mempool', [payment(txid(41), 'mempool')], 1)),
      store,
      bitcoinParameters,
      here,
    );
    expect(repeat.result).toEqual({});
    expect(repeat.response.status).toBeUndefined();
    expect(repeat.started).toBe(false);

    // One new transaction beside the known one: the execution starts and passes on the new one only.
    const mixed = await deliverAndRun(
      await signed(bitcoinDelivery('mempool', [payment(txid(41), 'mempool'), payment(txid(42), 'mempool')])),
      store,
      bitcoinParameters,
      here,
    );
    expect(mixed.started).toBe(true);
    expect(txids(mixed.emitted)).toEqual([txid(42)]);
  });

  it('a repeat still starts an execution for another trigger node, and for a test webhook', async () => {
    const store = processedDataStore();
    const request = async (retries: number) =>
      signed(bitcoinDelivery('in-block', [payment(txid(43), 'in-block')], retries));
    await deliverAndRun(await request(0), store, bitcoinParameters, { workflowId: 'workflow-a' });
    // Another workflow (its executions record in their own scope): nothing recorded there yet.
    const elsewhere = await deliverAndRun(await request(1), store, bitcoinParameters, {
      workflowId: 'workflow-b',
    });
    expect(elsewhere.started).toBe(true);
    // A test webhook shows what it was sent, whatever ran before.
    const manual = await deliver(await request(2), { workflowId: 'workflow-a', mode: 'manual' });
    expect(manual.result.workflowData).toBeDefined();
  });
});
