/** The wallet reads table of @blockwire/rpc/operations (what n8n and MCP derive from) against the emulator's anvil. */
import { createRpcClient, type RpcClient } from '@blockwire/rpc';
import { getLogsRead, walletReads } from '@blockwire/rpc/operations';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TOKENS } from './node/contracts.js';
import { call, useEmulator } from './test-support.js';

const t = useEmulator({ anvil: true });
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** One read by id, typed loosely: each test passes the input and output of the read it names. */
interface LooseRead {
  run(client: RpcClient, input: Record<string, unknown>): Promise<unknown>;
  simplify(output: unknown): unknown;
}
const read = (id: string) => walletReads.find((r) => r.id === id) as unknown as LooseRead;

describe('walletReads against the emulator', () => {
  it('lists the six reads in file order, each read-only with a zod input', () => {
    expect(walletReads.map((r) => r.id)).toEqual([
      'getBalance',
      'getBlockNumber',
      'getGasPrice',
      'getLogs',
      'getTokenBalance',
      'readContract',
    ]);
    for (const r of walletReads) {
      expect(r.readOnly).toBe(true);
      expect(r.displayName).not.toBe('');
      expect(typeof r.input.shape).toBe('object');
    }
  });

  it('runs each read to JSON and simplifies it to formatted values with the raw ones under raw', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const token = FIXTURE_TOKENS.BlockwireToken.address;
    await call(`${t.emu.control}/requests`, { method: 'DELETE' });
    // Started together, as n8n runs items: one JSON-RPC batch.
    const [balance, tokenBalance, contract, blockNumber, gasPrice] = await Promise.all([
      read('getBalance').run(rpc, { address: ALICE }),
      read('getTokenBalance').run(rpc, { token, owner: ALICE }),
      read('readContract').run(rpc, { address: token, abi: 'function totalSupply() view returns (uint256)' }),
      read('getBlockNumber').run(rpc, {}),
      read('getGasPrice').run(rpc, {}),
    ]);
    expect((await call(`${t.emu.control}/requests?interface=node`)).body.requests).toHaveLength(1);
    for (const output of [balance, tokenBalance, contract, blockNumber, gasPrice]) {
      expect(JSON.parse(JSON.stringify(output))).toEqual(output);
    }
    const wei = BigInt((balance as { hex: string }).hex);
    expect(read('getBalance').simplify(balance)).toEqual({
      address: ALICE,
      balance: expect.stringMatching(/^\d+(\.\d+)?$/),
      unit: 'ETH',
      raw: { wei: wei.toString(), hex: (balance as { hex: string }).hex },
    });
    expect(read('getTokenBalance').simplify(tokenBalance)).toEqual({
      token,
      owner: ALICE,
      symbol: 'BWT',
      balance: '1234.567890123456789012',
      raw: { amount: '1234567890123456789012', decimals: 18 },
    });
    expect(contract).toMatchObject({ result: FIXTURE_TOKENS.BlockwireToken.totalSupply.toString() });
    expect(read('getBlockNumber').simplify(blockNumber)).toEqual({
      blockNumber: t.emu.chain!.blockNumber,
      raw: { hex: `0x${t.emu.chain!.blockNumber.toString(16)}` },
    });
    expect(read('getGasPrice').simplify(gasPrice)).toMatchObject({
      unit: 'gwei',
      gasPrice: expect.stringMatching(/^\d/),
    });
  });

  it('answers every example of every read, simplified to exactly its declared schema (MCP’s output schema)', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    for (const walletRead of walletReads) {
      expect(walletRead.examples.length, walletRead.id).toBeGreaterThan(0);
      for (const example of walletRead.examples) {
        const output = await read(walletRead.id).run(rpc, example as Record<string, unknown>);
        const simplified = read(walletRead.id).simplify(output);
        // zod drops keys a schema does not name: equal only if the schema names every key.
        expect(
          walletRead.simplified.parse(simplified),
          `${walletRead.id} ${JSON.stringify(example)}`,
        ).toEqual(simplified);
      }
    }
    const pings = (await read('getLogs').run(rpc, getLogsRead.examples[0] as Record<string, unknown>)) as {
      decoded: boolean;
    }[];
    expect(pings.some((log) => log.decoded)).toBe(true);
  });

  it('getLogs decodes with an event fragment; bad input names the field', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const logs = (await read('getLogs').run(rpc, {
      fromBlock: 1,
      toBlock: 'latest',
      address: t.emu.chain!.contract,
      event: 'event Ping(address caller)',
    })) as unknown[];
    expect(logs.length).toBeGreaterThan(0);
    const [first] = read('getLogs').simplify(logs as never) as Record<string, unknown>[];
    expect(first).toMatchObject({ eventName: 'Ping', decoded: true, blockNumber: expect.any(Number) });
    expect(first!.raw).toMatchObject({ topics: expect.any(Array), data: expect.stringMatching(/^0x/) });
    await expect(read('getBalance').run(rpc, { address: 'nope' })).rejects.toThrow(/address/);
    await expect(read('readContract').run(rpc, { address: ALICE, abi: 'function (' })).rejects.toThrow(
      /abi: does not parse/,
    );
  });
});
