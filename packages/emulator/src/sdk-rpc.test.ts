/** Every method of @blockwire/rpc against the emulator's node interface (a real anvil). */
import { AuthenticationError, createClient, JsonRpcError, NotFoundError } from '@blockwire/core';
import { createRpcClient } from '@blockwire/rpc';
import { getBlockByNumberMethod } from '@blockwire/rpc/operations';
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from './test-support.js';

const t = useEmulator({ anvil: true });

describe('rpc SDK against the emulator', () => {
  it('runs all eight methods on the seeded chain', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const chain = t.emu.chain!;
    const block = await rpc.getBlockByNumber(2, true);
    expect(block?.number).toBe('0x2');
    expect(block?.transactions.length).toBeGreaterThan(0);
    const byHash = await rpc.getBlockByHash(block!.hash!);
    expect(byHash?.number).toBe('0x2');
    expect(await rpc.getUncleByBlockHashAndIndex(block!.hash!, 0)).toBeNull();
    expect(await rpc.getUncleByBlockNumberAndIndex('latest', 0)).toBeNull();
    const receipts = await rpc.getBlockReceipts(2);
    expect(receipts?.length).toBe(block?.transactions.length);
    const tx = await rpc.getTransactionByHash(chain.transactionHashes[0]!);
    expect(tx?.from?.toLowerCase()).toBe(chain.accounts[0]!.toLowerCase());
    const receipt = await rpc.getTransactionReceipt(chain.transactionHashes[0]!);
    expect(receipt?.contractAddress).toBe(chain.contract);
    const proof = await rpc.getProof(chain.contract, [`0x${'0'.repeat(64)}`]);
    expect(proof?.storageProof).toHaveLength(1);
    expect(await rpc.getTransactionByHash(`0x${'ab'.repeat(32)}`)).toBeNull();
    const described = await rpc.call(getBlockByNumberMethod, { blockTag: 'earliest' });
    expect(described?.number).toBe('0x0');
  });

  it('answers what the rpc README promises for what does not exist: null, not an error', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    expect(await rpc.getUncleByBlockNumberAndIndex(12345678, 0)).toBeNull();
    expect(await rpc.getUncleByBlockHashAndIndex(`0x${'ab'.repeat(32)}`, 0)).toBeNull();
    expect(await rpc.getBlockByNumber(12345678)).toBeNull();
    expect(await rpc.getBlockReceipts(12345678)).toBeNull();
    const receipt = await rpc.getTransactionReceipt(t.emu.chain!.transactionHashes[1]!);
    expect(receipt?.blockTimestamp).toMatch(/^0x[0-9a-f]+$/);
  });

  it('batches calls of one tick and gives each caller its own result or error', async () => {
    await call(`${t.emu.control}/requests`, { method: 'DELETE' });
    const rpc = createRpcClient(t.client, { chain: 'avalanche' });
    const results = await Promise.allSettled([
      rpc.request({ method: 'eth_blockNumber' }),
      rpc.getBlockByNumber('latest'),
      rpc.request({ method: 'eth_noSuchMethod', params: [] }),
      ...Array.from({ length: 22 }, (_, i) =>
        rpc.getTransactionByHash(`0x${(i + 1).toString(16).padStart(64, '0')}`),
      ),
      // Identical to a call above, in flight at the same time: it shares that call's request.
      rpc.getBlockByNumber('latest'),
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: expect.stringMatching(/^0x/) });
    expect(results[2]).toMatchObject({ status: 'rejected', reason: expect.any(JsonRpcError) });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(25);
    expect(results[25]).toEqual(results[1]);
    // 25 distinct calls, at most 20 per batch: two HTTP requests.
    const served = (await call(`${t.emu.control}/requests?interface=node`)).body.requests;
    expect(served).toHaveLength(2);
    expect(served[0].path).toBe('/node/avalanche/***');
  });

  it('reports a wrong key and an unknown chain as typed errors, never with the key', async () => {
    const wrong = createClient({ apiKey: 'sk-not-this-one', baseUrls: t.emu.urls, retry: false });
    const error = await createRpcClient(wrong, { chain: 'eth' })
      .getBlockByNumber('latest')
      .catch((e: unknown) => e);
    await wrong.close();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String((error as Error).message)).not.toContain('sk-not-this-one');
    const unknown = await createRpcClient(t.client, { chain: 'dogechain' })
      .getBlockByNumber('latest')
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
  });

  it('rpcLimitRate refuses calls one by one with -32005; the SDK retries only those', async () => {
    const setFaults = (body: Record<string, unknown>) =>
      call(`${t.emu.control}/faults`, { method: 'POST', body });
    try {
      await setFaults({ interface: 'node', rpcLimitRate: 1 });
      const refused = await createRpcClient(t.client, { chain: 'eth' })
        .getBlockByNumber(1)
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: -32005, rpcMethod: 'eth_getBlockByNumber' });

      await setFaults({ interface: 'node', rpcLimitRate: 0.3 });
      const retrying = createClient({
        apiKey: t.emu.apiKey,
        baseUrls: t.emu.urls,
        retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 5 },
      });
      const rpc = createRpcClient(retrying, { chain: 'eth' });
      const blocks = await Promise.all(Array.from({ length: 8 }, (_, i) => rpc.getBlockByNumber(i % 6)));
      await retrying.close();
      expect(blocks.map((block) => block?.number)).toEqual([
        '0x0',
        '0x1',
        '0x2',
        '0x3',
        '0x4',
        '0x5',
        '0x0',
        '0x1',
      ]);
    } finally {
      await call(`${t.emu.control}/faults`, { method: 'DELETE' });
    }
  });

  it('takes any hex storage key in eth_getProof, as geth and anvil do, and the typed reads', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const contract = t.emu.chain!.contract;
    const raw = (await rpc.request({ method: 'eth_getProof', params: [contract, ['0x0'], 'latest'] })) as {
      storageProof: { value: string }[];
    };
    const typed = await rpc.getProof(contract, ['0x0']);
    expect(raw.storageProof[0]!.value).toBe(typed!.storageProof[0]!.value);
    expect(await rpc.getStorageAt(contract, 0)).toBe(
      `0x${typed!.storageProof[0]!.value.slice(2).padStart(64, '0')}`,
    );
    expect(await rpc.getChainId()).toBe('0x7a69');
    expect(await rpc.getCode(contract)).not.toBe('0x');
    const logs = await rpc.getLogs({ fromBlock: 0, toBlock: 'latest', address: contract });
    expect(logs.length).toBeGreaterThan(0);
    expect(BigInt(await rpc.getBalance(t.emu.chain!.accounts[0]!))).toBeGreaterThan(0n);
  });
});
