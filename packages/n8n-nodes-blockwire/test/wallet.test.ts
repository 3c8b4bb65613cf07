/**
 * The Wallet resource: the SDK's wallet reads as n8n actions, against the emulator's anvil. Every
 * item's calls go out together as JSON-RPC batches (counted at the emulator), Simplify gives the
 * read's formatted values with the raw ones under `raw`, and with Continue On Fail a bad row gives
 * an error item naming its input item.
 */
import { createClient } from '@blockwire/core';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { createRpcClient } from '@blockwire/rpc';
import { walletReads } from '@blockwire/rpc/operations';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_ACTIONS, WALLET_RESOURCE } from '../nodes/Blockwire/actions';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { clearRequestLog, requestsSeen, type RunOptions, runNode } from './support/run-node';

let emulator: Emulator;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 }); // with anvil
  client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls, retry: false });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

const run = (parameters: IDataObject | ((index: number) => IDataObject), options?: RunOptions) =>
  runNode(emulator, parameters, options);
/** The JSON-RPC HTTP requests the emulator saw since the last clear. */
const nodeRequests = () => requestsSeen(emulator, 'node');
const clearRequests = () => clearRequestLog(emulator);

/** wei as ETH, every digit kept. */
function ether(wei: bigint): string {
  const text = wei.toString().padStart(19, '0');
  const fraction = text.slice(-18).replace(/0+$/, '');
  return fraction ? `${text.slice(0, -18)}.${fraction}` : text.slice(0, -18);
}

describe('Wallet actions, derived from the SDK’s wallet reads', () => {
  it('has one action per wallet read, under the Wallet resource, each read-only', () => {
    const wallet = NODE_ACTIONS.filter((action) => action.resource === WALLET_RESOURCE);
    expect(wallet.map((action) => action.action)).toEqual(walletReads.map((read) => read.id));
    expect(wallet.every((action) => action.readOnly && action.client === 'rpc')).toBe(true);
    const resource = new Blockwire().description.properties.find((p) => p.name === 'resource');
    expect(resource?.options).toContainEqual({ name: 'Wallet', value: WALLET_RESOURCE });
  });

  it('balances of the dev accounts: formatted ETH with the wei under raw, as the anvil holds them', async () => {
    const accounts = emulator.chain!.accounts;
    const rpc = createRpcClient(client, { chain: 'eth' });
    const held = await Promise.all(accounts.map(async (account) => BigInt(await rpc.getBalance(account))));
    const output = await run(
      (index) => ({ resource: 'wallet', operation: 'getBalance', chain: 'eth', address: accounts[index] }),
      { count: accounts.length },
    );
    expect(output.map((item) => item.pairedItem)).toEqual(accounts.map((_, item) => ({ item })));
    for (const [index, item] of output.entries()) {
      expect(item.json).toMatchObject({
        balance: ether(held[index]!),
        raw: expect.objectContaining({ wei: held[index]!.toString() }),
      });
    }
    const full = await run({
      resource: 'wallet',
      operation: 'getBalance',
      chain: 'eth',
      address: accounts[0],
      simplify: false,
    });
    expect(full[0]?.json).not.toHaveProperty('raw');
    expect(JSON.stringify(full[0]?.json)).toContain(held[0]!.toString());
  });

  it('45 items go out as 3 JSON-RPC batches (20 + 20 + 5), not 45 requests', async () => {
    const addresses = Array.from(
      { length: 45 },
      (_, index) => `0x${(index + 1).toString(16).padStart(40, '0')}`,
    );
    await clearRequests();
    const output = await run(
      (index) => ({ resource: 'wallet', operation: 'getBalance', chain: 'eth', address: addresses[index] }),
      { count: 45 },
    );
    expect(output).toHaveLength(45);
    expect(output.every((item) => item.json.balance === '0')).toBe(true);
    expect(await nodeRequests()).toHaveLength(3);
  });

  it('token balances of the dev accounts: every digit in token units, the raw amount and decimals under raw, 20 items in one batch', async () => {
    const token = emulator.chain!.contracts.tokens.BlockwireToken;
    const holders = Object.keys(token.balances);
    const owners = Array.from({ length: 20 }, (_, index) => holders[index % holders.length]!);
    await clearRequests();
    const output = await run(
      (index) => ({
        resource: 'wallet',
        operation: 'getTokenBalance',
        chain: 'eth',
        token: token.address,
        owner: owners[index],
      }),
      { count: 20 },
    );
    expect(output[0]?.json).toMatchObject({
      symbol: 'BWT',
      balance: '1234.567890123456789012',
      raw: { amount: '1234567890123456789012', decimals: 18 },
    });
    expect(output[2]?.json).toMatchObject({ balance: '0.000000000000000001' });
    // 3 distinct balanceOf calls, decimals and symbol once: identical calls are merged, one batch.
    expect(await nodeRequests()).toHaveLength(1);
    const [full] = await run({
      resource: 'wallet',
      operation: 'getTokenBalance',
      chain: 'eth',
      token: token.address,
      owner: holders[0],
      simplify: false,
    });
    expect(full?.json).toMatchObject({ raw: '1234567890123456789012', decimals: 18, symbol: 'BWT' });
  });

  it('with Continue On Fail, a contract that is not an ERC-20 fails its own row, naming the token', async () => {
    const { tokens, notAToken } = emulator.chain!.contracts;
    const rows = [tokens.BlockwireDollar.address, notAToken];
    const output = await run(
      (index) => ({
        resource: 'wallet',
        operation: 'getTokenBalance',
        chain: 'eth',
        token: rows[index],
        owner: emulator.chain!.accounts[0],
      }),
      { count: 2, continueOnFail: true },
    );
    expect(output[0]?.json).toMatchObject({ symbol: 'BWUSD', balance: '2500.75' });
    expect(output[1]?.json).toMatchObject({
      error: expect.stringMatching(/not an ERC-20/),
      itemIndex: 1,
    });
    expect(String(output[1]?.json.error)).toContain(notAToken);
  });

  it('reads a contract from an ABI fragment, decoded, with one row per item', async () => {
    const token = emulator.chain!.contracts.tokens.BlockwireToken;
    const holders = Object.keys(token.balances);
    const output = await run(
      (index) => ({
        resource: 'wallet',
        operation: 'readContract',
        chain: 'eth',
        address: token.address,
        abi: 'function balanceOf(address owner) view returns (uint256)',
        options: { args: holders[index] },
      }),
      { count: holders.length },
    );
    expect(output.map((item) => item.json.result)).toEqual(
      holders.map((holder) => token.balances[holder]!.toString()),
    );
    const [symbol] = await run({
      resource: 'wallet',
      operation: 'readContract',
      chain: 'eth',
      address: token.address,
      abi: 'function symbol() view returns (string)',
    });
    expect(symbol?.json).toMatchObject({ result: 'BWT', raw: { address: token.address } });
  });

  it('with Continue On Fail, a call that reverts gives its row the decoded reason, and a bad fragment names the field', async () => {
    const { reverter } = emulator.chain!.contracts;
    const fragments = [
      'function alwaysReverts() view returns (uint256)',
      'function divide(uint256 a, uint256 b) view returns (uint256)',
      'function (',
    ];
    const output = await run(
      (index) => ({
        resource: 'wallet',
        operation: 'readContract',
        chain: 'eth',
        address: reverter,
        abi: fragments[index],
        options: index === 1 ? { args: '1, 0' } : {},
      }),
      { count: 3, continueOnFail: true },
    );
    expect(output[0]?.json).toMatchObject({
      error: expect.stringContaining('alwaysReverts on'),
      itemIndex: 0,
    });
    expect(String(output[0]?.json.error)).toContain('Reverter: always reverts');
    expect(String(output[1]?.json.error)).toMatch(/divide on .* reverted: .*Panic\(0x12\)/);
    expect(output[2]?.json).toMatchObject({ error: expect.stringMatching(/abi/i), itemIndex: 2 });
    expect(JSON.stringify(output)).not.toContain(emulator.apiKey);
  });

  it('logs decoded with an event fragment: one item per log, the event’s arguments by name, the log under raw', async () => {
    const output = await run({
      resource: 'wallet',
      operation: 'getLogs',
      chain: 'eth',
      options: {
        fromBlock: '0x0',
        toBlock: 'latest',
        address: emulator.chain!.contract,
        event: 'event Ping(address caller)',
      },
    });
    expect(output.length).toBeGreaterThan(0);
    for (const item of output) {
      expect(item.json).toMatchObject({
        eventName: 'Ping',
        decoded: true,
        args: { caller: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) },
        blockNumber: expect.any(Number),
        raw: expect.objectContaining({ topics: expect.any(Array) }),
      });
      expect(item.pairedItem).toEqual({ item: 0 });
    }
  });

  it('block number and gas price: the chain’s, the gas price in gwei with the wei under raw', async () => {
    const rpc = createRpcClient(client, { chain: 'eth' });
    const [blockNumber] = await run({ resource: 'wallet', operation: 'getBlockNumber', chain: 'eth' });
    expect(blockNumber?.json.blockNumber).toBe(Number(BigInt(await rpc.getBlockNumber())));
    const [gas] = await run({ resource: 'wallet', operation: 'getGasPrice', chain: 'eth' });
    const wei = BigInt(await rpc.getGasPrice());
    expect(gas?.json).toMatchObject({ raw: expect.objectContaining({ wei: wei.toString() }) });
    expect(Number(gas?.json.gasPrice) * 1e9).toBeCloseTo(Number(wei), -3);
  });

  it('with Continue On Fail, a row with a bad checksum gives an error item naming the field and its input item', async () => {
    const [good] = emulator.chain!.accounts;
    const badChecksum = `${good!.slice(0, 2)}${good!.slice(2, 3).toLowerCase() === good!.slice(2, 3) ? good!.slice(2, 3).toUpperCase() : good!.slice(2, 3).toLowerCase()}${good!.slice(3)}`;
    const rows = [good, badChecksum, good];
    const output = await run(
      (index) => ({ resource: 'wallet', operation: 'getBalance', chain: 'eth', address: rows[index] }),
      { count: 3, continueOnFail: true },
    );
    expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
    expect(output[1]?.json).toMatchObject({
      error: expect.stringMatching(/^Address in item 1: .*checksum/i),
      itemIndex: 1,
    });
    expect(output[0]?.json.balance).toEqual(expect.any(String));
    expect(output[2]?.json.balance).toEqual(expect.any(String));
  });
});
