/**
 * The webhook kit's metrics, from a real receiver on 127.0.0.1 that the emulator delivers to
 * (its signed Bitcoin deliveries, mempool → in-block → confirmed, and a block replayed), beside
 * forged requests, with the SDK's in-memory exporter.
 */
import { channel } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@blockwire/core';
import { startEmulator } from '@blockwire/emulator';
import {
  addBitcoinStreamAddress,
  createBitcoinStream,
  createBitcoinTxTracker,
  createMemoryTxStore,
  createWebhookHandler,
  replayBitcoinBlock,
  updateSettings,
  WEBHOOK_CHANNELS,
} from '@blockwire/streams';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { instrumentWebhooks } from './webhooks.js';

const SECRET = 'otel webhook secret';
const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

const emu = await startEmulator({ anvil: false });
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const instrumentation = instrumentWebhooks({ meterProvider });
const client = createClient({ apiKey: emu.apiKey, baseUrls: emu.urls, retry: false });

let failNextCallback = true;
const handler = createWebhookHandler({
  secret: SECRET,
  tracker: createBitcoinTxTracker({ store: createMemoryTxStore() }),
  onBitcoin: () => {
    if (!failNextCallback) return;
    failNextCallback = false;
    throw new RangeError('the ledger is full');
  },
  onError: () => undefined,
});
const server = createServer(handler.node);
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/blockwire`;
});

afterAll(async () => {
  instrumentation.disable();
  await handler.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await client.close();
  await emu.close();
  await meterProvider.shutdown();
});

async function control(path: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${emu.control}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** Waits until `count` deliveries have reached the receiver and it has finished with them. */
async function delivered(count: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const response = await fetch(`${emu.control}/deliveries`);
    const { totals } = (await response.json()) as { totals: { delivered: number } };
    if (totals.delivered >= count) {
      await handler.idle();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} deliveries reached the receiver`);
}

/** Each data point of a counter, as `attributes → value`, read now. */
async function counter(name: string): Promise<{ attributes: Record<string, unknown>; value: number }[]> {
  await reader.forceFlush();
  const metric = exporter
    .getMetrics()
    .flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics))
    .filter((m) => m.descriptor.name === name)
    .at(-1);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value as number }));
}

function sum(
  points: { attributes: Record<string, unknown>; value: number }[],
  match: Record<string, unknown>,
) {
  return points
    .filter((p) => Object.entries(match).every(([key, value]) => p.attributes[key] === value))
    .reduce((total, p) => total + p.value, 0);
}

it('counts every request answered, by outcome and why, every stage moved, and the callback that threw', async () => {
  await updateSettings(client, { secretKey: SECRET });
  const stream = await createBitcoinStream(client, {
    webhookUrl: url,
    includeInputs: true,
    includeOutputs: true,
  });
  const streamId = stream.id as string;
  await addBitcoinStreamAddress(client, { id: streamId, address: WATCHED });
  await control('/bitcoin/transactions', { to: WATCHED, amountBtc: '0.1' });
  await delivered(1);
  const { height } = (await control('/bitcoin/mine', { blocks: 1 })) as { height: string };
  await delivered(2);
  await control('/bitcoin/mine', { blocks: 2 });
  await delivered(3);
  // The block again: the tracker has seen it, so it is a duplicate and moves nothing.
  await replayBitcoinBlock(client, { chainId: 'mainnet', blockNumber: height, streamId });
  await delivered(4);
  // Forged requests, straight to the receiver.
  const forged = JSON.stringify({ streamId, confirmed: true });
  const signatures: Record<string, string>[] = [{ 'x-signature': `0x${'00'.repeat(32)}` }, {}];
  for (const headers of signatures) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: forged,
    });
    expect(response.status).toBe(401);
  }

  const deliveries = await counter('blockwire.webhook.deliveries');
  expect(sum(deliveries, { 'blockwire.webhook.outcome': 'verification' })).toBe(1);
  expect(
    sum(deliveries, { 'blockwire.webhook.outcome': 'accepted', 'blockwire.webhook.duplicate': false }),
  ).toBe(3);
  expect(
    sum(deliveries, {
      'blockwire.webhook.outcome': 'accepted',
      'blockwire.webhook.duplicate': true,
      'blockwire.webhook.stream_id': streamId,
    }),
  ).toBe(1);
  expect(
    sum(deliveries, {
      'blockwire.webhook.outcome': 'refused',
      'blockwire.webhook.reason': 'bad-signature',
      'http.response.status_code': 401,
    }),
  ).toBe(1);
  expect(sum(deliveries, { 'blockwire.webhook.reason': 'missing-signature' })).toBe(1);
  // A forged body names no stream to the metrics: only what was verified does.
  expect(
    sum(deliveries, { 'blockwire.webhook.outcome': 'refused', 'blockwire.webhook.stream_id': streamId }),
  ).toBe(0);

  const stages = await counter('blockwire.webhook.stage_changes');
  expect(
    stages.map((p) => [
      p.attributes['blockwire.webhook.from_stage'],
      p.attributes['blockwire.webhook.stage'],
      p.value,
    ]),
  ).toEqual(
    expect.arrayContaining([
      ['none', 'mempool', 1],
      ['mempool', 'in-block', 1],
      ['in-block', 'confirmed', 1],
    ]),
  );
  expect(stages.reduce((n, p) => n + p.value, 0)).toBe(3);

  const callbacks = await counter('blockwire.webhook.callbacks');
  expect(callbacks).toEqual([
    {
      attributes: {
        'blockwire.webhook.kind': 'bitcoin',
        'blockwire.webhook.outcome': 'failed',
        'error.type': 'RangeError',
      },
      value: 1,
    },
  ]);
  expect(JSON.stringify(exporter.getMetrics())).not.toContain(SECRET);
});

it("counts the store's lost and regained sessions and takeovers", async () => {
  // The PostgreSQL store publishes these (its own tests make it, against a real server); here
  // they are published as it does, to see them counted.
  const store = channel(WEBHOOK_CHANNELS.store);
  store.publish({ store: 'postgres', event: 'connection-lost', owner: 7 });
  store.publish({ store: 'postgres', event: 'connection-regained', owner: 8, from: 7 });
  store.publish({ store: 'postgres', event: 'takeover', owner: 8, from: 5 });
  store.publish({ store: 'postgres', event: 'takeover', owner: 8, from: 6 });
  const events = await counter('blockwire.webhook.store.events');
  expect(
    Object.fromEntries(events.map((p) => [p.attributes['blockwire.webhook.store.event'], p.value])),
  ).toEqual({ 'connection-lost': 1, 'connection-regained': 1, takeover: 2 });
});

it('counts nothing once disabled', async () => {
  const more = instrumentWebhooks({ meterProvider });
  more.disable();
  const before = sum(await counter('blockwire.webhook.store.events'), {});
  channel(WEBHOOK_CHANNELS.store).publish({ store: 'postgres', event: 'takeover', owner: 9, from: 8 });
  // The first instrumentation still counts it once; the disabled one adds nothing.
  expect(sum(await counter('blockwire.webhook.store.events'), {})).toBe(before + 1);
});
