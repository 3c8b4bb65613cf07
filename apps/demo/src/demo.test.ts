/**
 * The whole demo on the emulator, over HTTP: the live board fed by real webhook deliveries and
 * pushed as server-sent events, and a restart that shows the same board.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SECRET_KEY, type Emulator, startEmulator } from '@blockwire/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from './demo.js';
import type { BitcoinStatusView, BoardEvents, BoardRow, InfoView, PriceView, WatchView } from './views.js';

const dataDir = mkdtempSync(join(tmpdir(), 'blockwire-demo-test-'));
const running: Demo[] = [];

afterAll(async () => {
  for (const demo of running) await demo.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(seed: number): Promise<Demo> {
  const demo = await startDemo({ backend: { mode: 'emulator' }, port: 0, dataDir, seed, log: () => {} });
  running.push(demo);
  return demo;
}

async function post<T>(demo: Demo, path: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(path, demo.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json as T;
}

type BoardEvent = { [E in keyof BoardEvents]: { event: E; data: BoardEvents[E] } }[keyof BoardEvents];

/** Reads the server-sent events of the board, one parsed event at a time. */
async function openEvents(demo: Demo) {
  const controller = new AbortController();
  const response = await fetch(new URL('/api/bitcoin/events', demo.url), { signal: controller.signal });
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  async function next(): Promise<BoardEvent> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) return { event, data: JSON.parse(data) } as BoardEvent;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
    }
  }
  /** The next `tx` event for this txid that reaches `stage`. */
  async function until(txid: string, stage: BoardRow['stage']): Promise<BoardRow> {
    for (;;) {
      const item = await next();
      if (item.event === 'tx' && item.data.txid === txid && item.data.stage === stage) return item.data;
    }
  }
  return { next, until, close: () => controller.abort() };
}

describe('the live Bitcoin board', () => {
  let first: Demo;
  let txid: string;
  let streamId: string | undefined;
  const added = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

  it('pushes a watched transaction mempool → in block → confirmed as the webhooks arrive', async () => {
    first = await start(11);
    const events = await openEvents(first);
    const board = await events.next();
    expect(board.event).toBe('board');
    const status = (board.data as BoardEvents['board']).status;
    expect(status).toMatchObject({ enabled: true, simulator: true, allAddresses: false });
    streamId = status.streamId;
    const to = status.watched[0]!;

    ({ txid } = await post<{ txid: string }>(first, '/api/bitcoin/send', { to, amountBtc: '0.5' }));
    const pending = await events.until(txid, 'mempool');
    expect(pending).toMatchObject({
      blockHeight: null,
      receivedSats: '50000000',
      receivedBtc: '0.5',
      coinbase: false,
      watchedAddresses: [to],
    });

    await post(first, '/api/bitcoin/mine', { blocks: 1 });
    const mined = await events.until(txid, 'in-block');
    expect(mined.blockHeight).toBeGreaterThan(880_000);
    await post(first, '/api/bitcoin/mine', { blocks: 2 });
    const confirmed = await events.until(txid, 'confirmed');
    expect(confirmed).toMatchObject({ blockHeight: mined.blockHeight, receivedSats: '50000000' });
    events.close();
  });

  it('marks coinbases when the stream delivers every transaction', async () => {
    const events = await openEvents(first);
    await events.next();
    const status = await post<BitcoinStatusView>(first, '/api/bitcoin/all-addresses', { enabled: true });
    expect(status.allAddresses).toBe(true);
    const { height } = await post<{ height: number }>(first, '/api/bitcoin/mine', { blocks: 1 });
    for (;;) {
      const item = await events.next();
      if (item.event === 'tx' && item.data.coinbase) {
        expect(item.data).toMatchObject({ blockHeight: height, stage: 'in-block', receivedSats: '0' });
        break;
      }
    }
    events.close();
  });

  it('watches an address the page adds', async () => {
    const status = await post<WatchView>(first, '/api/bitcoin/watch', { address: added });
    expect(status).toMatchObject({ added: true });
    expect(status.watched).toContain(added);
    const again = await post<WatchView>(first, '/api/bitcoin/watch', { address: added });
    expect(again).toMatchObject({ added: false, watched: status.watched });
  });

  it('refuses deliveries that are not signed by the service', async () => {
    const response = await fetch(new URL('/webhooks/bitcoin', first.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        streamId: 'x',
        chainId: 'mainnet',
        confirmed: true,
        block: {},
        transactions: [],
      }),
    });
    expect(response.status).toBe(401);
  });

  it('shows the same board, stream and addresses after a restart', async () => {
    await first.close();
    const second = await start(12);
    const response = await fetch(new URL('/api/bitcoin/board', second.url));
    const { rows, status } = (await response.json()) as BoardEvents['board'];
    expect(rows.find((row) => row.txid === txid)).toMatchObject({ stage: 'confirmed', receivedBtc: '0.5' });
    expect(status.streamId).toBe(streamId);
    expect(status.watched).toContain(added);
    expect(status.allAddresses).toBe(true);
  });
});

describe('with BLOCKWIRE_API_KEY: the real service (here, an emulator standing in for it)', () => {
  let emulator: Emulator;
  const apiKey = 'real-looking-key-8c1f2e';

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey, seed: 3 });
  });
  afterAll(() => emulator?.close());

  it('says which service it uses, works, and keeps the board off without a public webhook URL', async () => {
    const demo = await startDemo({
      backend: { mode: 'service', apiKey, baseUrls: emulator.urls, webhook: undefined },
      port: 0,
      dataDir,
      log: () => {},
    });
    running.push(demo);
    expect(demo.mode).toBe('service');
    const infoText = await (await fetch(new URL('/api/info', demo.url))).text();
    expect(infoText).not.toContain(apiKey);
    const info = JSON.parse(infoText) as InfoView;
    expect(info).toMatchObject({
      mode: 'service',
      evmSimulator: false,
      backend: { label: 'Blockwire service' },
    });
    expect(info.bitcoin).toMatchObject({ enabled: false, simulator: false });
    expect(info.bitcoin.reason).toMatch(
      /^The real service cannot deliver webhooks to 127\.0\.0\.1\. Set BLOCKWIRE_WEBHOOK_URL/,
    );
    const price = await fetch(
      new URL('/api/prices/evm?chain=eth&address=0x514910771AF9Ca656af840dff83E8264EcF986CA', demo.url),
    );
    expect(((await price.json()) as PriceView).symbol).toBe('LINK');
    const send = await fetch(new URL('/api/bitcoin/send', demo.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: '0.1' }),
    });
    expect(send.status).toBe(409);
  });

  it('runs the board on deliveries to the public URL it is given, checked with the given secret', async () => {
    const port = await freePort();
    const demo = await startDemo({
      backend: {
        mode: 'service',
        apiKey,
        baseUrls: emulator.urls,
        webhook: { url: `http://127.0.0.1:${port}/webhooks/bitcoin`, secret: DEFAULT_SECRET_KEY },
      },
      port,
      dataDir: join(dataDir, 'with-webhook'),
      log: () => {},
    });
    running.push(demo);
    const events = await openEvents(demo);
    const board = (await events.next()).data as BoardEvents['board'];
    expect(board.status).toMatchObject({ enabled: true, simulator: false });
    // The network moves on its own on the real service; here the test drives the emulator.
    const control = (path: string, body: unknown) =>
      fetch(`${emulator.control}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ txid: string }>);
    const { txid } = await control('/bitcoin/transactions', {
      to: board.status.watched[1],
      amountBtc: '0.00000546',
    });
    expect(await events.until(txid, 'mempool')).toMatchObject({
      receivedSats: '546',
      receivedBtc: '0.00000546',
    });
    await control('/bitcoin/mine', { blocks: 3 });
    await events.until(txid, 'confirmed');
    events.close();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
