/** The rpc SDK's contract reads (readContract, getTokenBalance, getLogs with an event) against the emulator's anvil. */
import { ValidationError } from '@blockwire/core';
import { ContractRevertError, createRpcClient, NotErc20Error } from '@blockwire/rpc';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TOKENS, NOT_A_TOKEN, REVERTER } from './node/contracts.js';
import { call, useEmulator } from './test-support.js';

const unexpected = (): Error => {
  throw new Error('expected a rejection');
};

const t = useEmulator({ anvil: true });
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CAROL = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const { BlockwireToken: BWT, BlockwireDollar: BWUSD } = FIXTURE_TOKENS;

describe('contract reads against the emulator', () => {
  it('getTokenBalance: raw, decimals, symbol and every digit, in one JSON-RPC batch', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    await call(`${t.emu.control}/requests`, { method: 'DELETE' });
    expect(await rpc.getTokenBalance({ token: BWT.address, owner: ALICE })).toEqual({
      token: BWT.address,
      owner: ALICE,
      raw: 1_234_567_890_123_456_789_012n,
      decimals: 18,
      symbol: 'BWT',
      formatted: '1234.567890123456789012',
    });
    const served = (await call(`${t.emu.control}/requests?interface=node`)).body.requests;
    expect(served).toHaveLength(1);
    const dollars = await rpc.getTokenBalance({ token: BWUSD.address, owner: CAROL.toLowerCase() });
    expect(dollars).toMatchObject({ raw: 1n, decimals: 6, symbol: 'BWUSD', formatted: '0.000001' });
  });

  it('readContract decodes strings, numbers and several outputs; blockTag is passed on', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    expect(
      await rpc.readContract({ address: BWT.address, abi: 'function name() view returns (string)' }),
    ).toBe('Blockwire Token');
    const divide = 'function divide(uint256 a, uint256 b) pure returns (uint256)';
    expect(
      await rpc.readContract({ address: REVERTER, abi: divide, functionName: 'divide', args: [7n, '2'] }),
    ).toBe(3n);
    expect(
      await rpc.readContract({
        address: BWUSD.address,
        abi: 'function balanceOf(address) view returns (uint256)',
        args: [ALICE],
        blockTag: 'latest',
      }),
    ).toBe(2_500_750_000n);
  });

  it('a revert is a ContractRevertError with the Error(string) or Panic reason decoded', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const reverted = await rpc
      .readContract({ address: REVERTER, abi: 'function alwaysReverts() pure returns (uint256)' })
      .catch((error: unknown) => error);
    expect(reverted).toBeInstanceOf(ContractRevertError);
    expect(reverted).toMatchObject({ reason: 'Reverter: always reverts', contract: REVERTER, code: 3 });
    expect((reverted as Error).message).toBe(
      `alwaysReverts on ${REVERTER} reverted: Reverter: always reverts`,
    );
    const panic = await rpc
      .readContract({
        address: REVERTER,
        abi: 'function divide(uint256, uint256) returns (uint256)',
        args: [1, 0],
      })
      .catch((error: unknown) => error);
    expect(panic).toMatchObject({ panicCode: 0x12, reason: 'panic: division or modulo by zero' });
    const custom = await rpc
      .readContract({ address: REVERTER, abi: 'function onlyNobody() view returns (uint256)' })
      .catch((error: unknown) => error);
    expect((custom as Error).message).toMatch(
      /onlyNobody on .* reverted with custom error data 0x[0-9a-f]{8}/,
    );
  });

  it('a contract that is not ERC-20 is a NotErc20Error naming it and decimals', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const error = await rpc.getTokenBalance({ token: NOT_A_TOKEN, owner: ALICE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotErc20Error);
    expect(error).toMatchObject({ contract: NOT_A_TOKEN, missing: 'decimals' });
    expect((error as Error).message).toBe(
      `${NOT_A_TOKEN} is not an ERC-20 token: its decimals() reverted or returned nothing`,
    );
  });

  it('bad input names the field before anything is sent', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const badAbi = await rpc
      .readContract({ address: BWT.address, abi: 'function balanceOf(address' })
      .then(unexpected, (e: Error) => e);
    expect(badAbi).toBeInstanceOf(ValidationError);
    expect(badAbi.message).toMatch(
      /^Invalid arguments of readContract: abi: does not parse as a function fragment/,
    );
    const wrongCase = `0x${ALICE.slice(2, 10).toLowerCase()}${ALICE.slice(10)}`;
    const checksum = await rpc
      .getTokenBalance({ token: BWT.address, owner: wrongCase })
      .then(unexpected, (e: Error) => e);
    expect(checksum.message).toMatch(
      /^Invalid arguments of getTokenBalance: owner: has a wrong EIP-55 checksum/,
    );
    const arg = await rpc
      .readContract({
        address: BWT.address,
        abi: 'function balanceOf(address) view returns (uint256)',
        args: [5],
      })
      .then(unexpected, (e: Error) => e);
    expect(arg.message).toBe(
      'Invalid arguments of readContract: args.0: must be an address: 0x and 40 hex digits',
    );
    const event = await rpc
      .getLogs({ fromBlock: 1, toBlock: 7, event: 'function nope()' })
      .then(unexpected, (e: Error) => e);
    expect(event.message).toMatch(/filter\.event: is a function fragment; it must be a event/);
  });

  it('getLogs with an event fragment decodes the seeded Ping logs; a fragment that does not fit keeps them raw', async () => {
    const rpc = createRpcClient(t.client, { chain: 'eth' });
    const chain = t.emu.chain!;
    const logs = await rpc.getLogs({
      fromBlock: 1,
      toBlock: 'latest',
      address: chain.contract,
      event: 'event Ping(address caller)',
    });
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) {
      expect(log).toMatchObject({
        decoded: true,
        eventName: 'Ping',
        args: { caller: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) },
      });
    }
    expect(chain.accounts.map((a) => a.toLowerCase())).toContain(
      (logs[0] as unknown as { args: { caller: string } }).args.caller.toLowerCase(),
    );
    const raw = await rpc.getLogs({
      fromBlock: 1,
      toBlock: 'latest',
      address: chain.contract,
      event: 'event Ping(address indexed caller)',
    });
    expect(raw).toHaveLength(logs.length);
    expect(raw[0]).toMatchObject({
      decoded: false,
      reason: 'has 0 indexed topic(s); the fragment indexes 1',
      data: logs[0]!.data,
    });
    // Without an event, getLogs is the raw method it always was.
    expect(await rpc.getLogs({ fromBlock: 1, toBlock: 'latest', address: chain.contract })).toHaveLength(
      logs.length,
    );
  });
});
