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

describe('methods the service does not have', () => {
  const REFUSED = [
    'anvil_reset',
    'anvil_setBalance',
    'anvil_mine',
    'evm_mine',
    'evm_snapshot',
    'evm_revert',
    'evm_setAutomine',
    'hardhat_reset',
    'debug_traceTransaction',
    'personal_sign',
    'admin_peers',
    'miner_start',
    'txpool_content',
    'ots_getApiLevel',
    // Standard prefixes, but they need keys a hosted node does not hold, or skip signing altogether.
    'eth_sendTransaction',
    'eth_sendUnsignedTransaction',
    'eth_sign',
    'eth_accounts',
  ];
  const head = async () => ({
    number: (await post('eth', rpc('eth_blockNumber'))).body.result,
    hash: (await post('eth', rpc('eth_getBlockByNumber', ['latest', false]))).body.result.hash,
  });

  it.each(REFUSED)('answers %s with -32601 and never forwards it', async (method) => {
    const before = await head();
    const params = method === 'anvil_setBalance' ? [emu.chain!.accounts[0], '0x0'] : [];
    const { status, body } = await post('eth', rpc(method, params, 7));
    expect(status).toBe(200);
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: expect.stringContaining(`${method} is not served`) },
    });
    expect(await head()).toEqual(before);
  });

  it('refuses them call by call inside a batch, and answers the rest', async () => {
    const before = await head();
    const { status, body } = await post('eth', [
      rpc('eth_blockNumber', [], 'a'),
      rpc('anvil_reset', [], 'b'),
      rpc('evm_mine', [], 'c'),
      rpc('eth_chainId', [], 'd'),
    ]);
    expect(status).toBe(200);
    expect(body.map((reply: { id: string }) => reply.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(body[0].result).toBe(before.number);
    expect(body[1].error.code).toBe(-32601);
    expect(body[2].error.code).toBe(-32601);
    expect(body[3].result).toBe('0x7a69');
    expect(await head()).toEqual(before);
  });

  it('serves the standard read methods viem and ethers use', async () => {
    const chain = emu.chain!;
    const batch = [
      rpc('eth_chainId'),
      rpc('net_version'),
      rpc('web3_clientVersion'),
      rpc('eth_gasPrice'),
      rpc('eth_getBalance', [chain.accounts[0], 'latest']),
      rpc('eth_getCode', [chain.contract, 'latest']),
      rpc('eth_call', [{ to: chain.contract, data: '0x' }, 'latest']),
      rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]),
      rpc('eth_feeHistory', ['0x2', 'latest', []]),
    ].map((call, id) => ({ ...call, id }));
    const { body } = await post('eth', batch);
    for (const reply of body) expect(reply.error, batch[reply.id]!.method).toBeUndefined();
  });
});

describe('the contract, whatever anvil says', () => {
  const FAR = '0xbc614e'; // block 12345678

  it('answers an unknown uncle with null, by number or by hash (anvil: -32602 or -32001)', async () => {
    const { body } = await post('eth', [
      rpc('eth_getUncleByBlockNumberAndIndex', [FAR, '0x0'], 1),
      rpc('eth_getUncleByBlockHashAndIndex', [`0x${'ab'.repeat(32)}`, '0x0'], 2),
      rpc('eth_getUncleCountByBlockHash', [`0x${'ab'.repeat(32)}`], 3),
      rpc('eth_getBlockTransactionCountByNumber', [FAR], 4),
      rpc('eth_getUncleCountByBlockNumber', [FAR], 5),
    ]);
    expect(body).toEqual([1, 2, 3, 4, 5].map((id) => ({ jsonrpc: '2.0', id, result: null })));
  });

  it('checks the params of the contract’s methods with the SDK’s own definitions: -32602 naming the argument', async () => {
    const { body } = await post('eth', rpc('eth_getUncleByBlockNumberAndIndex', ['0xzz', '0x0']));
    expect(body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('blockTag (argument 0'),
    });
    const batch = await post('eth', [
      rpc('eth_getTransactionByHash', ['0x1234'], 1),
      rpc('eth_getBlockByNumber', ['0x1', 'yes'], 2),
      rpc('eth_getProof', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', [], 'latest', 'extra'], 3),
      rpc('eth_getBlockByNumber', ['0x1', false], 4),
    ]);
    expect(
      batch.body.map((reply: { id: number; error?: { code: number; message: string } }) => reply.error?.code),
    ).toEqual([-32602, -32602, -32602, undefined]);
    expect(batch.body[0].error.message).toMatch(
      /hash \(argument 0 of eth_getTransactionByHash\) must be a 32-byte hash/,
    );
    expect(batch.body[1].error.message).toMatch(/fullTransactions \(argument 1/);
    expect(batch.body[2].error.message).toMatch(/at most 3 argument/);
    expect(batch.body[3].result.number).toBe('0x1');
  });

  it('never forwards a call with bad params: a refused notification changes nothing either', async () => {
    const before = (await post('eth', rpc('eth_blockNumber'))).body.result;
    const { status } = await post('eth', { jsonrpc: '2.0', method: 'eth_getBlockReceipts', params: [{}] });
    expect(status).toBe(204);
    expect((await post('eth', rpc('eth_blockNumber'))).body.result).toBe(before);
  });

  it('treats a null state tag of eth_getProof as latest, as the contract says', async () => {
    const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const withNull = await post('eth', rpc('eth_getProof', [account, [], null]));
    const latest = await post('eth', rpc('eth_getProof', [account, [], 'latest']));
    expect(withNull.body.result).toEqual(latest.body.result);
  });

  it('gives blockTimestamp as a hex quantity in receipts, like every other quantity', async () => {
    const chain = emu.chain!;
    const receipts = [
      ...(await Promise.all(
        chain.transactionHashes.map(
          async (hash) => (await post('eth', rpc('eth_getTransactionReceipt', [hash]))).body.result,
        ),
      )),
      ...(await post('eth', rpc('eth_getBlockReceipts', ['0x4']))).body.result,
    ];
    for (const receipt of receipts) {
      const block = (await post('eth', rpc('eth_getBlockByNumber', [receipt.blockNumber, false]))).body
        .result;
      expect(receipt.blockTimestamp).toBe(block.timestamp);
      for (const log of receipt.logs) expect(log.blockTimestamp).toBe(block.timestamp);
    }
  });

  it('proves the pending state with eth_getProof("pending"): the latest one, since nothing is pending', async () => {
    const chain = emu.chain!;
    const proof = async (tag: string | null) =>
      (await post('eth', rpc('eth_getProof', [chain.contract, [`0x${'0'.repeat(64)}`], tag]))).body.result;
    const latest = await proof('latest');
    expect(latest.nonce).toBe('0x1');
    expect(await proof('pending')).toEqual(latest);
    expect(await proof(null)).toEqual(latest);
  });
});

describe('JSON-RPC notifications and invalid calls', () => {
  const notification = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', method, params });

  it('answers a single notification with 204 and no body', async () => {
    const response = await fetch(`${emu.urls.node}/eth/${emu.apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notification('eth_blockNumber')),
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('leaves notifications out of a batch, and answers a batch of only notifications with 204', async () => {
    const mixed = await post('eth', [notification('eth_blockNumber'), rpc('eth_chainId', [], 9)]);
    expect(mixed.status).toBe(200);
    expect(mixed.body).toEqual([{ jsonrpc: '2.0', id: 9, result: '0x7a69' }]);
    const only = await post('eth', [notification('eth_blockNumber'), notification('eth_chainId')]);
    expect(only.status).toBe(204);
    expect(only.body).toBe('');
  });

  it('never runs a refused method sent as a notification', async () => {
    const before = (await post('eth', rpc('eth_blockNumber'))).body.result;
    expect((await post('eth', notification('evm_mine'))).status).toBe(204);
    expect((await post('eth', rpc('eth_blockNumber'))).body.result).toBe(before);
  });

  it('answers each invalid member of a batch with -32600 and id null, and the valid ones as usual', async () => {
    const { status, body } = await post('eth', [
      1,
      { jsonrpc: '1.0', id: 2, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 3, method: 5 },
      { jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: 'x' },
      rpc('eth_chainId', [], 5),
    ]);
    expect(status).toBe(200);
    expect(
      body.slice(0, 4).map((reply: { id: unknown; error: { code: number } }) => [reply.id, reply.error.code]),
    ).toEqual([
      [null, -32600],
      [2, -32600],
      [3, -32600],
      [4, -32600],
    ]);
    expect(body[4]).toEqual({ jsonrpc: '2.0', id: 5, result: '0x7a69' });
  });

  it('answers each call of a batch under its own id, even when the caller repeats ids', async () => {
    const { body } = await post('eth', [rpc('eth_chainId', [], 1), rpc('net_version', [], 1)]);
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 1, result: '31337' },
    ]);
  });

  it('refuses a body that is not UTF-8 with -32700', async () => {
    const response = await fetch(`${emu.urls.node}/eth/${emu.apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_\xff"}', 'latin1'),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe('mining and resets through the control API', () => {
  it('mines blocks and resets the chain to its seeded state', async () => {
    const latest = async () =>
      (await post('eth', rpc('eth_getBlockByNumber', ['latest', false]))).body.result;
    const seeded = await latest();
    const mined = await call(`${emu.control}/node/mine`, { method: 'POST', body: { blocks: 3 } });
    expect(mined).toMatchObject({ status: 200, body: { blockNumber: emu.chain!.blockNumber + 3 } });
    expect(Number((await latest()).number)).toBe(emu.chain!.blockNumber + 3);
    const reset = await call(`${emu.control}/node/reset`, { method: 'POST' });
    expect(reset).toMatchObject({ status: 200, body: { blockNumber: emu.chain!.blockNumber } });
    expect((await latest()).hash).toBe(seeded.hash);
    // Again: a reset works more than once.
    await call(`${emu.control}/node/mine`, { method: 'POST', body: {} });
    await call(`${emu.control}/node/reset`, { method: 'POST' });
    expect((await latest()).hash).toBe(seeded.hash);
  });

  it('refuses a bad block count', async () => {
    const bad = await call(`${emu.control}/node/mine`, { method: 'POST', body: { blocks: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/blocks/);
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
