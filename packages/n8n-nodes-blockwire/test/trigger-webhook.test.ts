import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { BlockwireTrigger } from '../nodes/BlockwireTrigger/BlockwireTrigger.node';
import { MEMORY_SIZE, memoryKey, rememberNew } from '../nodes/BlockwireTrigger/memory';
import { webhookContext } from './support/n8n-context';
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
  options: { parameters?: IDataObject; staticData?: IDataObject; webhookSecret?: string } = {},
) {
  const ctx = webhookContext({
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
    const staticData: IDataObject = {};
    const id = txid(7);
    const stages = [];
    for (const stage of ['mempool', 'mempool', 'in-block', 'in-block', 'confirmed', 'confirmed'] as const) {
      const retry = stages.filter((s) => s === stage).length;
      stages.push(stage);
      const { items, result } = await deliver(
        await signed(bitcoinDelivery(stage, [payment(id, stage)], retry)),
        {
          staticData,
        },
      );
      if (retry === 0) {
        expect(items.map((item) => [item.txid, item.stage, item.blockHeight])).toEqual([
          [id, stage, stage === 'mempool' ? null : 870000],
        ]);
      } else {
        expect(result, `retried ${stage}`).toEqual({});
      }
    }
  });

  it('emits only the new transactions of a delivery that repeats some', async () => {
    const staticData: IDataObject = {};
    await deliver(await signed(bitcoinDelivery('in-block', [payment(txid(1), 'in-block')])), { staticData });
    const { items } = await deliver(
      await signed(bitcoinDelivery('in-block', [payment(txid(1), 'in-block'), payment(txid(2), 'in-block')])),
      { staticData },
    );
    expect(items.map((item) => item.txid)).toEqual([txid(2)]);
  });

  it('starts nothing for a stage that is not selected, and still emits that stage later if it is selected', async () => {
    const staticData: IDataObject = {};
    const parameters = { mode: 'bitcoin', stages: ['confirmed'] };
    const mempool = await deliver(await signed(bitcoinDelivery('mempool', [payment(txid(3), 'mempool')])), {
      parameters,
      staticData,
    });
    expect(mempool.result).toEqual({});
    const confirmed = await deliver(
      await signed(bitcoinDelivery('confirmed', [payment(txid(3), 'confirmed')])),
      {
        parameters,
        staticData,
      },
    );
    expect(confirmed.items.map((item) => item.stage)).toEqual(['confirmed']);
    expect(staticData.seen).toHaveLength(1);
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
    const staticData: IDataObject = {};
    const parameters = { mode: 'evm' };
    const first = await deliver(await signed(evmDelivery(false)), { parameters, staticData });
    expect(first.items).toEqual([evmDelivery(false)]);
    expect(
      (await deliver(await signed({ ...evmDelivery(false), retries: 1 }), { parameters, staticData })).result,
    ).toEqual({});
    expect((await deliver(await signed(evmDelivery(true)), { parameters, staticData })).items).toHaveLength(
      1,
    );
    expect(
      (await deliver(await signed(evmDelivery(true, '21000001')), { parameters, staticData })).items,
    ).toHaveLength(1);
    const forged = await deliver(
      { rawBody: JSON.stringify(evmDelivery(true, '21000002')) },
      { parameters, staticData },
    );
    expect(forged.response.status).toBe(401);
  });
});

describe('delivery memory', () => {
  it('keeps at most the newest entries and tells new keys from repeats', () => {
    const staticData: IDataObject = {};
    expect(rememberNew(staticData, ['a', 'b', 'a'], { size: 3 })).toEqual([true, true, false]);
    expect(rememberNew(staticData, ['c', 'd'], { size: 3 })).toEqual([true, true]);
    expect(staticData.seen).toEqual(['b', 'c', 'd']);
    expect(rememberNew(staticData, ['a'], { size: 3 })).toEqual([true]);
    expect(MEMORY_SIZE).toBeGreaterThanOrEqual(10_000);
  });

  it('survives n8n overwriting static data with an older copy (an execution that ended late)', () => {
    const scope = 'wf-lost-update:node-1';
    const first: IDataObject = {};
    rememberNew(first, ['k1'], { scope });
    const stale = structuredClone(first); // what a slow execution loaded, and will write back
    const second = structuredClone(first);
    rememberNew(second, ['k2'], { scope });
    // The slow execution saves its copy last: k2 is gone from static data, not from the trigger.
    expect(rememberNew(structuredClone(stale), ['k2', 'k3'], { scope })).toEqual([false, true]);
  });

  it('keys are short and distinct per part', () => {
    const key = memoryKey('bitcoin', txid(1), 'mempool');
    expect(key).toHaveLength(16);
    expect(key).not.toBe(memoryKey('bitcoin', txid(1), 'in-block'));
    expect(memoryKey('a', 'bc')).not.toBe(memoryKey('ab', 'c'));
  });
});
