// The client against a real EVM node: anvil on 127.0.0.1 behind a proxy that serves the node
// interface's URL shape, POST /<chain>/<key>.
import { AuthenticationError, type Client, createClient, JsonRpcError } from '@blockwire/core';
import { createPublicClient, custom } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from './client.js';
import { createRpcClient } from './create-rpc-client.js';
import type { Hex } from './inputs.js';
import { type Anvil, startAnvil, startNodeProxy } from './testing/anvil.js';
import { callsOf } from './testing/server.js';

const CHAIN = 'anvil';
const API_KEY = 'integration-key-1';
// anvil's first two unlocked dev accounts.
const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
// Init code: SSTORE(0, 0x2a), then LOG0 with empty data; deploys an empty contract.
const INIT_CODE = '0x602a60005560006000a0';
const SLOT_0 = `0x${'0'.repeat(64)}`;

let anvil: Anvil | undefined;
let proxy: Awaited<ReturnType<typeof startNodeProxy>> | undefined;
let client: Client;
let rpc: RpcClient;
let transfers: Hex[];
let creation: Hex;
let blockNumber: Hex;

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await startNodeProxy(anvil.url, { chain: CHAIN, apiKey: API_KEY });
  client = createClient({ apiKey: API_KEY, baseUrls: { node: proxy.url }, retry: { baseDelayMs: 10 } });
  rpc = createRpcClient(client, { chain: CHAIN });

  // Four transactions in one block: three transfers and a contract creation.
  await rpc.request({ method: 'evm_setAutomine', params: [false] });
  transfers = [];
  for (const value of ['0xde0b6b3a7640000', '0x1', '0x2']) {
    transfers.push(
      (await rpc.request({
        method: 'eth_sendTransaction',
        params: [{ from: ALICE, to: BOB, value }],
      })) as Hex,
    );
  }
  creation = (await rpc.request({
    method: 'eth_sendTransaction',
    params: [{ from: BOB, data: INIT_CODE }],
  })) as Hex;
  await rpc.request({ method: 'anvil_mine', params: ['0x1'] });
  blockNumber = (await rpc.request({ method: 'eth_blockNumber' })) as Hex;
});

afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await anvil?.stop();
});

describe('the eight methods on a real node', () => {
  it('reads the block by number and by hash, with hashes or full transactions', async () => {
    const latest = await rpc.getBlockByNumber('latest');
    expect(latest?.number).toBe(blockNumber);
    expect(latest?.transactions).toEqual([...transfers, creation]);

    const byNumber = await rpc.getBlockByNumber(BigInt(blockNumber));
    expect(byNumber).toEqual(latest);

    const full = await rpc.getBlockByHash(latest!.hash!, true);
    expect(full?.hash).toBe(latest?.hash);
    expect(full?.transactions.map((tx) => [tx.hash, tx.from])).toEqual([
      [transfers[0], ALICE],
      [transfers[1], ALICE],
      [transfers[2], ALICE],
      [creation, BOB],
    ]);
    expect(full?.baseFeePerGas).toMatch(/^0x[0-9a-f]+$/);

    expect(await rpc.getBlockByNumber(0)).toMatchObject({ number: '0x0', transactions: [] });
    expect(await rpc.getBlockByNumber(Number(blockNumber) + 100)).toBeNull();
  });

  it('gets null for uncles, which anvil never has', async () => {
    const latest = await rpc.getBlockByNumber('latest');
    await expect(rpc.getUncleByBlockHashAndIndex(latest!.hash!, 0)).resolves.toBeNull();
    await expect(rpc.getUncleByBlockNumberAndIndex(blockNumber, '0x0')).resolves.toBeNull();
  });

  it('reads the transactions and their receipts', async () => {
    const tx = await rpc.getTransactionByHash(transfers[0]!);
    expect(tx).toMatchObject({
      hash: transfers[0],
      from: ALICE,
      to: BOB,
      value: '0xde0b6b3a7640000',
      blockNumber,
    });

    const receipt = await rpc.getTransactionReceipt(transfers[0]!);
    expect(receipt).toMatchObject({
      transactionHash: transfers[0],
      status: '0x1',
      contractAddress: null,
      blockNumber,
    });

    const created = await rpc.getTransactionReceipt(creation);
    expect(created?.to).toBeNull();
    expect(created?.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(created?.logs).toHaveLength(1);
    expect(created?.logs[0]?.address).toBe(created?.contractAddress);

    await expect(rpc.getTransactionByHash(`0x${'12'.repeat(32)}`)).resolves.toBeNull();
    await expect(rpc.getTransactionReceipt(`0x${'12'.repeat(32)}`)).resolves.toBeNull();
  });

  it('reads every receipt of the block', async () => {
    const receipts = await rpc.getBlockReceipts(blockNumber);
    expect(receipts?.map((r) => r.transactionHash)).toEqual([...transfers, creation]);
    expect(receipts?.every((r) => r.status === '0x1' && r.effectiveGasPrice !== undefined)).toBe(true);
  });

  it('proves an account and a storage slot', async () => {
    const created = await rpc.getTransactionReceipt(creation);
    const proof = await rpc.getProof(created!.contractAddress!, [SLOT_0]);
    expect(proof?.address).toBe(created?.contractAddress);
    expect(proof?.accountProof.length).toBeGreaterThan(0);
    expect(proof?.storageProof).toEqual([{ key: SLOT_0, value: '0x2a', proof: expect.any(Array) }]);

    const alice = await rpc.getProof(ALICE, [], blockNumber);
    expect(alice?.nonce).toBe('0x3');
    expect(BigInt(alice!.balance)).toBeGreaterThan(0n);
  });
});

describe('batches on a real node', () => {
  it('sends a mixed batch in one request; only the failing call fails', async () => {
    const before = proxy!.bodies.length;
    const [block, unknown, receipt, proof] = await Promise.allSettled([
      rpc.getBlockByNumber(blockNumber),
      rpc.request({ method: 'eth_notAMethod', params: [] }),
      rpc.getTransactionReceipt(transfers[1]!),
      rpc.getProof(BOB, []),
    ]);
    expect(proxy!.bodies.length - before).toBe(1);
    expect(callsOf(proxy!.bodies[before]).map((call) => call.method)).toEqual([
      'eth_getBlockByNumber',
      'eth_notAMethod',
      'eth_getTransactionReceipt',
      'eth_getProof',
    ]);
    expect(block).toMatchObject({ status: 'fulfilled', value: { number: blockNumber } });
    expect(receipt).toMatchObject({ status: 'fulfilled', value: { transactionHash: transfers[1] } });
    expect(proof).toMatchObject({ status: 'fulfilled', value: { nonce: '0x1' } });
    expect(unknown.status).toBe('rejected');
    const error = (unknown as PromiseRejectedResult).reason as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32601);
    expect(error.rpcMethod).toBe('eth_notAMethod');
  });

  it('reports a wrong key as AuthenticationError with the key masked', async () => {
    const wrong = createClient({ apiKey: 'not-the-key', baseUrls: { node: proxy!.url }, retry: false });
    try {
      const error = await createRpcClient(wrong, { chain: CHAIN })
        .getBlockByNumber('latest')
        .catch((e: unknown) => e as AuthenticationError);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, path: `/${CHAIN}/***` });
      expect(JSON.stringify(error)).not.toContain('not-the-key');
    } finally {
      await wrong.close();
    }
  });
});

describe('viem through request()', () => {
  it('reads the chain, blocks, transactions and receipts', async () => {
    const viem = createPublicClient({ transport: custom(rpc) });
    expect(await viem.getChainId()).toBe(31337);
    expect(await viem.getBlockNumber()).toBe(BigInt(blockNumber));

    const block = await viem.getBlock({ blockNumber: BigInt(blockNumber), includeTransactions: true });
    expect(block.transactions.map((tx) => tx.hash)).toEqual([...transfers, creation]);
    expect(block.transactions[0]?.value).toBe(10n ** 18n);

    const tx = await viem.getTransaction({ hash: transfers[0]! });
    expect(tx.from).toBe(ALICE);
    const receipt = await viem.getTransactionReceipt({ hash: creation });
    expect(receipt.status).toBe('success');
    expect(receipt.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await viem.getBalance({ address: BOB, blockNumber: 0n })).toBe(10_000n * 10n ** 18n);
  });

  it("sees a JSON-RPC error's code", async () => {
    const viem = createPublicClient({ transport: custom(rpc) });
    const error = await viem.request({ method: 'eth_notAMethod' as never }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32601 });
  });
});
