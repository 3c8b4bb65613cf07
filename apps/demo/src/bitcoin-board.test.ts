import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@blockwire/core';
import { signBody, type TxRecord } from '@blockwire/streams';
import { afterAll, describe, expect, it } from 'vitest';
import { BOARD_SIZE, createBitcoinBoard, toRow } from './bitcoin-board.js';

const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const txid = (i: number) => i.toString(16).padStart(64, '0');

function record(tx: Partial<TxRecord['tx']>, stage: TxRecord['stage'] = 'in-block'): TxRecord {
  return {
    txid: txid(1),
    stage,
    tx: { txid: txid(1), ...tx },
    block:
      stage === 'mempool' ? { height: '0', hash: 'mempool' } : { height: '880010', hash: '00'.repeat(32) },
    streamId: 's',
    firstSeenAt: 1,
    updatedAt: 2,
  };
}

describe('toRow', () => {
  it('adds what the watched addresses receive, exactly, in BTC and sats', () => {
    const row = toRow(
      record({
        value: 0.30000001,
        vout: [
          { value: 0.1, n: 0, scriptPubKey: { type: 'witness_v0_keyhash', address: WATCHED } },
          { value: 0.2, n: 1, addresses: [WATCHED.toUpperCase()] },
          { value: 1e-8, n: 2, address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' },
        ],
      }),
      [WATCHED],
    );
    expect(row).toMatchObject({
      receivedSats: '30000000',
      receivedBtc: '0.3',
      valueSats: '30000001',
      valueBtc: '0.30000001',
      watchedAddresses: [WATCHED, WATCHED.toUpperCase()],
      blockHeight: 880010,
      coinbase: false,
    });
  });

  it('marks a coinbase (one input, an OP_RETURN output) and a mempool transaction has no block', () => {
    const coinbase = toRow(
      record({
        vin: [{ address: null, value: null }],
        vout: [
          { value: 3.125, n: 0, scriptPubKey: { type: 'witness_v0_keyhash' } },
          { value: 0, n: 1, scriptPubKey: { type: 'nulldata' } },
        ],
      }),
      [],
    );
    expect(coinbase).toMatchObject({ coinbase: true, valueSats: '312500000', receivedSats: '0' });
    expect(toRow(record({ value: 1 }, 'mempool'), []).blockHeight).toBeNull();
  });

  it('never fails on an amount finer than a satoshi: it counts as nothing', () => {
    expect(toRow(record({ value: 0.123456789 }), []).valueSats).toBe('0');
  });
});

describe('the board', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'blockwire-board-'));
  const client = createClient({ apiKey: 'unused', baseUrls: { streams: 'http://127.0.0.1:9' } });
  const board = createBitcoinBoard({
    client,
    dataDir,
    secret: 'board-secret',
    simulator: false,
    log: () => {},
  });
  let server: Server;

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await board.close();
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`shows the ${BOARD_SIZE} most recently moved transactions, pushed as they arrive`, async () => {
    server = createServer(board.receiver);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const pushed: string[] = [];
    board.subscribe((event, data) => {
      if (event === 'tx') pushed.push((data as { txid: string }).txid);
    });
    const body = JSON.stringify({
      streamId: 's',
      chainId: 'mainnet',
      confirmed: false,
      retries: 0,
      block: { height: '0', hash: 'mempool' },
      transactions: Array.from({ length: BOARD_SIZE + 5 }, (_, i) => ({
        txid: txid(i + 1),
        vin: [],
        vout: [],
        value: 0.001,
      })),
    });
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'x-signature': await signBody(body, 'board-secret') },
    });
    expect(response.status).toBe(200);
    await expect.poll(() => pushed.length).toBe(BOARD_SIZE + 5);
    const rows = board.rows();
    expect(rows).toHaveLength(BOARD_SIZE);
    expect(rows.every((row) => row.stage === 'mempool' && row.valueSats === '100000')).toBe(true);
  });
});
