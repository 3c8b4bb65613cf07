/**
 * The whole demo on the emulator, over HTTP: the live board fed by real webhook deliveries and
 * pushed as server-sent events, and a restart that shows the same board.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from './demo.js';
import type { BitcoinStatusView, BoardEvents, BoardRow } from './views.js';

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
    const status = await post<BitcoinStatusView>(first, '/api/bitcoin/watch', { address: added });
    expect(status.watched).toContain(added);
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
