import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../server.js';
import { call, emulator } from '../test-support.js';
import { FIXTURE_TOKENS, NOT_A_TOKEN, REVERTER } from './contracts.js';

const SELECTORS = {
  name: '0x06fdde03',
  symbol: '0x95d89b41',
  decimals: '0x313ce567',
  totalSupply: '0x18160ddd',
  balanceOf: '0x70a08231',
  alwaysReverts: '0xb4f5537d',
};
const word = (value: bigint) => value.toString(16).padStart(64, '0');
const addressWord = (address: string) => word(BigInt(address));
/** An ABI-encoded `string` return value, as the contracts answer. */
const abiString = (text: string) => {
  const hex = Buffer.from(text).toString('hex');
  return `0x${word(32n)}${word(BigInt(text.length))}${hex.padEnd(Math.ceil(hex.length / 64) * 64, '0')}`;
};

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator({ anvil: true });
});
afterAll(() => emu.close());

async function ethCall(to: string, data: string) {
  const { body } = await call(`${emu.urls.node}/eth/${emu.apiKey}`, {
    method: 'POST',
    body: { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data }, 'latest'] },
  });
  return body as { result?: string; error?: { code: number; message: string; data?: string } };
}

describe('the fixture contracts on the emulator chain', () => {
  it('the committed code is what contracts/*.sol compile to (solc, run as a separate process)', async () => {
    const script = fileURLToPath(new URL('../../scripts/compile-contracts.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--check']);
    expect(stdout).toContain('is what contracts/*.sol compile to');
  }, 120_000);

  it('serves two ERC-20s with their name, symbol, decimals, balances and total supply', async () => {
    for (const token of Object.values(FIXTURE_TOKENS)) {
      expect((await ethCall(token.address, SELECTORS.name)).result).toBe(abiString(token.name));
      expect((await ethCall(token.address, SELECTORS.symbol)).result).toBe(abiString(token.symbol));
      expect((await ethCall(token.address, SELECTORS.decimals)).result).toBe(
        `0x${word(BigInt(token.decimals))}`,
      );
      expect((await ethCall(token.address, SELECTORS.totalSupply)).result).toBe(
        `0x${word(token.totalSupply)}`,
      );
      for (const [holder, amount] of Object.entries(token.balances)) {
        const data = `${SELECTORS.balanceOf}${addressWord(holder)}`;
        expect((await ethCall(token.address, data)).result).toBe(`0x${word(amount)}`);
      }
    }
    expect(emu.chain?.contracts.tokens.BlockwireToken.address).toBe(FIXTURE_TOKENS.BlockwireToken.address);
  });

  it('has a contract without decimals() and one that reverts with Error(string)', async () => {
    expect((await ethCall(NOT_A_TOKEN, SELECTORS.name)).result).toBe(abiString('Not A Token'));
    const noDecimals = await ethCall(NOT_A_TOKEN, SELECTORS.decimals);
    expect(noDecimals.error?.code).toBe(3);
    const reverted = await ethCall(REVERTER, SELECTORS.alwaysReverts);
    expect(reverted.error?.data).toBe(`0x08c379a0${abiString('Reverter: always reverts').slice(2)}`);
  });
});
