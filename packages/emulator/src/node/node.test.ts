import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../server.js';
import { call, emulator } from '../test-support.js';
import { PING_TOPIC, resolveAnvilBinary, startAnvil } from './anvil.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator({ anvil: true });
});
afterAll(() => emu.close());

const rpc = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const post = (chain: string, body: unknown, key = emu.apiKey) =>
  call(`${emu.urls.node}/${chain}/${key}`, { method: 'POST', body });

describe('node interface (anvil)', () => {
  it('answers eth_getBlockByNumber from the seeded chain, with transactions', async () => {
    const { status, body } = await post('eth', rpc('eth_getBlockByNumber', ['0x2', true]));
    expect(status).toBe(200);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(body.result.number).toBe('0x2');
    expect(body.result.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.result.transactions.length).toBeGreaterThan(1);
    expect(body.result.transactions[0]).toHaveProperty('from');
  });

  it('seeds receipts with logs and a contract with storage to prove', async () => {
    const chain = emu.chain!;
    expect(chain.blockNumber).toBeGreaterThanOrEqual(6);
    const receipts = await Promise.all(
      chain.transactionHashes.map(
        async (hash) => (await post('eth', rpc('eth_getTransactionReceipt', [hash]))).body.result,
      ),
    );
    expect(receipts[0].contractAddress).toBe(chain.contract);
    const logs = receipts.flatMap((r) => r.logs);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0].topics).toEqual([PING_TOPIC]);
    const proof = await post('eth', rpc('eth_getProof', [chain.contract, [`0x${'0'.repeat(64)}`], 'latest']));
    expect(BigInt(proof.body.result.storageProof[0].value)).toBeGreaterThanOrEqual(42n);
  });

  it('is the same chain on every start with the same seed', async () => {
    const again = await emulator({ anvil: true });
    try {
      const hash = async (e: Emulator) =>
        (
          await call(`${e.urls.node}/eth/${e.apiKey}`, {
            method: 'POST',
            body: rpc('eth_getBlockByNumber', ['latest', false]),
          })
        ).body.result.hash;
      expect(await hash(again)).toBe(await hash(emu));
      expect(again.chain).toEqual(emu.chain);
    } finally {
      await again.close();
    }
  });

  it('accepts the chain slugs of the service', async () => {
    for (const chain of ['eth', 'avalanche', 'arbitrum', 'ronin', 'mantle', 'polygon', 'bsc-testnet']) {
      const { status, body } = await post(chain, rpc('eth_blockNumber'));
      expect(status, chain).toBe(200);
      expect(body.result, chain).toMatch(/^0x/);
    }
  });

  it('answers an unknown chain with 404 and a JSON-RPC error', async () => {
    const { status, body } = await post('dogechain', rpc('eth_blockNumber'));
    expect(status).toBe(404);
    expect(body.error.message).toMatch(/unknown chain "dogechain".*mantle/);
  });

  it('checks the key without echoing it', async () => {
    const { status, body } = await post('eth', rpc('eth_blockNumber'), 'not-the-key');
    expect(status).toBe(401);
    expect(JSON.stringify(body)).not.toContain('not-the-key');
  });

  it('passes batches through, matched by id', async () => {
    const batch = [
      rpc('eth_blockNumber', [], 'a'),
      rpc('eth_chainId', [], 'b'),
      rpc('no_such_method', [], 'c'),
    ];
    const { status, body } = await post('eth', batch);
    expect(status).toBe(200);
    const byId = Object.fromEntries(body.map((reply: { id: string }) => [reply.id, reply]));
    expect(byId.a.result).toMatch(/^0x/);
    expect(byId.b.result).toBe('0x7a69');
    expect(byId.c.error.code).toBe(-32601);
  });

  it('answers a batch of more than 20 with one -32005 error', async () => {
    const ok = await post(
      'eth',
      Array.from({ length: 20 }, (_, i) => rpc('eth_blockNumber', [], i)),
    );
    expect(ok.body).toHaveLength(20);
    const tooMany = await post(
      'eth',
      Array.from({ length: 21 }, (_, i) => rpc('eth_blockNumber', [], i)),
    );
    expect(tooMany.status).toBe(200);
    expect(tooMany.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: 'batch size exceeds 20 (got 21)' },
    });
  });

  it('answers a body that is not JSON with -32700', async () => {
    const { status, body } = await call(`${emu.urls.node}/eth/${emu.apiKey}`, {
      method: 'POST',
      body: '{"jsonrpc"',
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32700);
  });
});

describe('anvil binary', () => {
  it('is found in the platform package of @foundry-rs/anvil', () => {
    expect(existsSync(resolveAnvilBinary())).toBe(true);
  });

  it('fails with a clear message when it cannot be started', async () => {
    await expect(startAnvil({ seed: 1, binary: '/nonexistent/anvil' })).rejects.toThrow(
      /anvil could not be started/,
    );
  });
});

describe('anvil outlives nothing', () => {
  // Linux only: the test finds anvil among the host's children through /proc.
  it.skipIf(process.platform !== 'linux')(
    'dies with the process that started it, even when that process is killed with SIGKILL',
    async () => {
      // As users run it: the built package in a plain Node process, which gets no chance to clean up.
      const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
      if (!existsSync(dist)) throw new Error(`${dist} is missing: build the emulator first`);
      const host = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { startEmulator } = await import(${JSON.stringify(dist)}); await startEmulator({}); console.log('ready'); setInterval(() => {}, 1000);`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise<void>((resolve, reject) => {
          host.stdout!.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('ready')) resolve();
          });
          host.once('exit', (code) => reject(new Error(`the host exited with ${code} before ready`)));
        });
        const children = readFileSync(`/proc/${host.pid}/task/${host.pid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .map(Number);
        const anvilPid = children.find((pid) =>
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!.endsWith('anvil'),
        );
        expect(anvilPid).toBeDefined();
        host.kill('SIGKILL');
        expect(await gone(anvilPid!, 5_000)).toBe(true);
      } finally {
        if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      }
    },
  );
});

/** Whether the process is gone (or a zombie nobody reaped) within `ms`. */
async function gone(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/^\d+ \(.*\) Z/.test(stat)) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
