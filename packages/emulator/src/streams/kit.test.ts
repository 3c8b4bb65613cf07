import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBitcoinTxTracker, createWebhookHandler, type TxChange } from '@blockwire/streams';
import { afterEach, describe, expect, it } from 'vitest';
import type { Streams } from './service.js';
import { type Harness, startHarness } from './test-helpers.js';

const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

let harness: Harness;
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  await harness?.close();
});

describe('the delivery engine with the @blockwire/streams webhook kit as the receiver', () => {
  it('lands every stage of every matching transaction in the tracker exactly once, through retries', async () => {
    harness = await startHarness({ retryDelaysMs: [5, 5, 5, 5] });
    const tracker = createBitcoinTxTracker();
    const changes: TxChange[] = [];
    const handler = createWebhookHandler({
      secret: 'kit secret',
      tracker,
      onBitcoin: (_payload, context) => {
        changes.push(...(context.changes ?? []));
      },
      onError: (error) => {
        throw error;
      },
    });
    // Every other delivery is refused first, so the engine's retries reach the kit as duplicates too.
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      if (requests % 3 === 0) {
        req.resume();
        res.statusCode = 500;
        res.end();
        return;
      }
      void handler.node(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeServer = () => new Promise((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bitcoin`;

    await harness.call('updateSettings', { secretKey: 'kit secret' });
    const { body: stream } = await harness.call('createBitcoinStream', {
      webhookUrl: url,
      includeInputs: true,
      includeOutputs: true,
    });
    expect(stream.status).toBe('active');
    await harness.call('addBitcoinStreamAddress', { id: stream.id, address: WATCHED });

    const { control } = harness.service;
    const confirmedTx = (await control.addTransaction({ to: WATCHED, amountBtc: '0.1' })).txid;
    const evictedTx = (await control.addTransaction({ to: WATCHED, amountBtc: '0.2' })).txid;
    await control.evict({ txid: evictedTx });
    const minedTx = (await control.addTransaction({ to: WATCHED, amountBtc: '0.3', mined: true })).txid;
    await control.mine({ blocks: 1 });
    const inBlockTx = (await control.addTransaction({ to: WATCHED, amountBtc: '0.4' })).txid;
    await control.mine({ blocks: 2 });
    await (harness.service as Streams).engine.idle();
    await handler.idle();

    const expected = {
      [confirmedTx]: 'confirmed',
      [evictedTx]: 'mempool',
      [minedTx]: 'confirmed',
      [inBlockTx]: 'in-block',
    };
    for (const [txid, stage] of Object.entries(expected)) {
      expect((await tracker.get(txid))?.stage, txid).toBe(stage);
    }
    const seen = changes.map((change) => `${change.txid}:${change.to}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(
      [
        `${confirmedTx}:mempool`,
        `${confirmedTx}:in-block`,
        `${confirmedTx}:confirmed`,
        `${evictedTx}:mempool`,
        `${minedTx}:in-block`,
        `${minedTx}:confirmed`,
        `${inBlockTx}:mempool`,
        `${inBlockTx}:in-block`,
      ].sort(),
    );
    expect((await harness.call('getBitcoinStream', { id: stream.id })).body.status).toBe('active');
  });
});
