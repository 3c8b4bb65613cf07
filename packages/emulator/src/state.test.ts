import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, emulator, type Receiver, startReceiver } from './test-support.js';

let dir: string;
let receiver: Receiver;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--state FILE', () => {
  it('keeps the Bitcoin chain: after a restart blocks go on from the tip and a payment mined before confirms', async () => {
    const stateFile = join(dir, 'state.json');
    const to = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
    const control = (emu: Awaited<ReturnType<typeof emulator>>, path: string, body: unknown) =>
      call(`${emu.control}${path}`, { method: 'POST', key: null, body });
    const first = await emulator({ stateFile, seed: 7, anvil: false });
    let id: string;
    let txid: string;
    let minedAt: number;
    try {
      const key = first.apiKey;
      id = (
        await call(`${first.urls.streams}/streams/bitcoin`, {
          method: 'PUT',
          key,
          body: { webhookUrl: receiver.url, description: 'chain', tag: 'chain' },
        })
      ).body.id;
      await call(`${first.urls.streams}/streams/bitcoin/${id}/address`, {
        method: 'POST',
        key,
        body: { address: to },
      });
      txid = (await control(first, '/bitcoin/transactions', { to, amountBtc: '0.5' })).body.txid;
      minedAt = (await control(first, '/bitcoin/mine', { blocks: 1 })).body.height;
    } finally {
      await first.close();
    }

    // The same seed again: the chain goes on, and no txid of the last run comes back.
    const second = await emulator({ stateFile, seed: 7, anvil: false });
    try {
      const { height } = (await control(second, '/bitcoin/mine', { blocks: 2 })).body;
      expect(height).toBe(minedAt + 2);
      await vi.waitFor(() => {
        const confirmed = receiver.requests
          .flatMap((request) => (request.body ? [JSON.parse(request.body)] : []))
          .filter((payload) => payload.confirmed && Number(payload.block.height) === minedAt);
        expect(
          confirmed.flatMap((payload) => payload.transactions.map((tx: { txid: string }) => tx.txid)),
        ).toContain(txid);
      });
      const again = (await control(second, '/bitcoin/transactions', { to, amountBtc: '0.5' })).body.txid;
      expect(again).not.toBe(txid);
    } finally {
      await second.close();
    }
  });

  it('refuses to start when the state file cannot be written, instead of failing at the first change', async () => {
    const stateFile = join(dir, 'missing-dir', 'state.json');
    await expect(emulator({ stateFile })).rejects.toThrow(/state file .*missing-dir.*cannot be written/);
  });

  it('keeps streams, addresses, xpubs and settings across a restart', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await emulator({ stateFile });
    const key = first.apiKey;
    let id: string;
    try {
      const created = await call(`${first.urls.streams}/streams/bitcoin`, {
        method: 'PUT',
        key,
        body: { webhookUrl: receiver.url, description: 'kept', tag: 'state' },
      });
      id = created.body.id;
      await call(`${first.urls.streams}/streams/bitcoin/${id}/address`, {
        method: 'POST',
        key,
        body: { address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu' },
      });
      await call(`${first.urls.streams}/settings`, { method: 'POST', key, body: { region: 'eu-central-1' } });
      // Written after each change, not only on close.
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).settings.region).toBe('eu-central-1');
    } finally {
      await first.close();
    }
    expect(readdirSync(dir)).toEqual(['state.json']);

    const second = await emulator({ stateFile });
    try {
      const stream = await call(`${second.urls.streams}/streams/bitcoin/${id}`, { key });
      expect(stream).toMatchObject({ status: 200, body: { description: 'kept', tag: 'state' } });
      const addresses = await call(`${second.urls.streams}/streams/bitcoin/${id}/address`, { key });
      expect(addresses.body.result.map((a: { address: string }) => a.address)).toEqual([
        'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      ]);
      const settings = await call(`${second.urls.streams}/settings`, { method: 'POST', key, body: {} });
      expect(settings.body.region).toBe('eu-central-1');
    } finally {
      await second.close();
    }
  });

  it('follows changes the delivery engine makes on its own (a stream put in error)', async () => {
    const stateFile = join(dir, 'state.json');
    const emu = await emulator({ stateFile, delivery: { retryDelaysMs: [10, 10] } });
    try {
      const key = emu.apiKey;
      const created = await call(`${emu.urls.streams}/streams/bitcoin`, {
        method: 'PUT',
        key,
        body: { webhookUrl: receiver.url, allAddresses: true },
      });
      expect(created.body.status).toBe('active');
      receiver.status = 500;
      await call(`${emu.control}/bitcoin/transactions`, {
        method: 'POST',
        body: { to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: 0.5 },
      });
      const statusInFile = () =>
        JSON.parse(readFileSync(stateFile, 'utf8')).bitcoinStreams.find(
          (s: { id: string }) => s.id === created.body.id,
        )?.status;
      for (let i = 0; i < 200 && statusInFile() !== 'error'; i++) await new Promise((r) => setTimeout(r, 25));
      expect(statusInFile()).toBe('error');
    } finally {
      await emu.close();
    }
  });

  it('keeps running, and says so, when the state file can no longer be written in the background', async () => {
    const ZPUB =
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const stateFile = join(sub, 'state.json');
    const failures: unknown[] = [];
    const onFailure = (reason: unknown) => failures.push(reason);
    process.on('unhandledRejection', onFailure);
    process.on('uncaughtException', onFailure);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const emu = await emulator({ stateFile, delivery: { retryDelaysMs: [10, 10] } });
    try {
      const key = emu.apiKey;
      const streams = `${emu.urls.streams}/streams/bitcoin`;
      const failing = (
        await call(streams, { method: 'PUT', key, body: { webhookUrl: receiver.url, allAddresses: true } })
      ).body.id;
      const watching = (await call(streams, { method: 'PUT', key, body: { webhookUrl: receiver.url } })).body
        .id;
      const xpub = await call(`${streams}/${watching}/xpub`, { method: 'POST', key, body: { xpub: ZPUB } });
      rmSync(sub, { recursive: true });
      receiver.status = 500;
      // The delivery engine puts a stream in error on its own: a background write.
      await call(`${emu.control}/bitcoin/transactions`, {
        method: 'POST',
        body: { to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: 0.5 },
      });
      // A payment first seen in an auto-mined block moves the xpub's window: a write from a timer.
      await call(`${emu.control}/bitcoin/transactions`, {
        method: 'POST',
        body: { to: xpub.body.receiveAddresses[3], amountBtc: 0.1, mined: true },
      });
      await call(`${emu.control}/bitcoin/auto`, { method: 'POST', body: { intervalMs: 5 } });
      await vi.waitFor(
        async () => expect((await call(`${streams}/${failing}`, { key })).body.status).toBe('error'),
        { timeout: 5_000 },
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await call(`${emu.control}/bitcoin/auto`, { method: 'POST', body: { intervalMs: 0 } });
      expect(failures).toEqual([]);
      expect((await call(streams, { key })).status).toBe(200);
      const logged = consoleError.mock.calls.map((args) => args.map(String).join(' '));
      expect(logged.some((line) => /state file .*sub.*cannot be written/.test(line))).toBe(true);
    } finally {
      await emu.close().catch(() => undefined);
      process.off('unhandledRejection', onFailure);
      process.off('uncaughtException', onFailure);
      consoleError.mockRestore();
    }
  });

  it('starts fresh without the file, and refuses a file that is not a state file', async () => {
    const stateFile = join(dir, 'missing.json');
    const fresh = await emulator({ stateFile });
    const list = await call(`${fresh.urls.streams}/streams/bitcoin`, { key: fresh.apiKey });
    expect(list.body).toEqual({ total: 0, result: [] });
    await fresh.close();
    expect(existsSync(stateFile)).toBe(true);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"streams": [');
    await expect(emulator({ stateFile: broken })).rejects.toThrow(/not valid JSON/);
    writeFileSync(broken, '{"something": "else"}');
    await expect(emulator({ stateFile: broken })).rejects.toThrow(/not an emulator state file/);
  });
});
