import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
