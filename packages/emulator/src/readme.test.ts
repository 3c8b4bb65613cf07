/** The README's promises (fixtures, routes, flags) checked against the running emulator. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_ROUTES } from './control.js';
import type { Emulator } from './server.js';
import { call, emulator } from './test-support.js';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const section = (title: string) => {
  const start = readme.indexOf(title);
  return readme.slice(start, readme.indexOf('\n##', start + title.length));
};

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator({ anvil: true, seed: 1 });
});
afterAll(() => emu.close());

describe('README', () => {
  it('lists EVM tokens the emulator prices, with the symbol it gives', async () => {
    const rows = [
      ...section('### EVM token prices').matchAll(/^\| (\S[^|]*?) \| (\S+) \| `(0x[0-9a-fA-F]{40})` \|/gm),
    ];
    expect(rows.length).toBeGreaterThanOrEqual(25);
    for (const [, chain, symbol, address] of rows) {
      const { status, body } = await call(`${emu.urls.evm}/erc20/${address}/price?chain=${chain}`, {
        key: emu.apiKey,
      });
      expect(status, `${chain} ${symbol}`).toBe(200);
      expect(body.tokenSymbol).toBe(symbol);
    }
  });

  it('lists the entities of each category', async () => {
    const rows = [...section('### Entities').matchAll(/^\| `([a-z-]+)` \| [^|]+ \| (.+) \|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const [, category, list] of rows) {
      const ids = [...list!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);
      const { body } = await call(`${emu.urls.evm}/entities/categories/${category}?limit=100`, {
        key: emu.apiKey,
      });
      expect(body.result.map((e: { id: string }) => e.id)).toEqual(ids);
    }
  });

  it('lists Solana mints the emulator prices', async () => {
    const mints = [...section('### Solana token prices').matchAll(/`([1-9A-HJ-NP-Za-km-z]{32,44})`/g)].map(
      (m) => m[1],
    );
    expect(mints.length).toBeGreaterThanOrEqual(12);
    const { body } = await call(`${emu.urls.solana}/token/mainnet/prices`, {
      method: 'POST',
      key: emu.apiKey,
      body: { addresses: mints },
    });
    expect(body.map((p: { tokenAddress: string }) => p.tokenAddress)).toEqual(mints);
  });

  it('states the seeded chain of seed 1', () => {
    const node = section('### JSON-RPC node');
    expect(node).toContain(`contract \`${emu.chain!.contract}\``);
    expect(node).toContain(`\`${emu.chain!.transactionHashes[0]}\``);
    expect(node).toContain(`latest block ${emu.chain!.blockNumber}`);
  });

  it('documents every control route and every CLI flag', async () => {
    const control = section('## Control API');
    for (const route of CONTROL_ROUTES) expect(control).toContain(`\`${route}\``);
    const cli = readFileSync(join(import.meta.dirname, 'cli.ts'), 'utf8');
    const flags = [...cli.matchAll(/^ {2}(-h, )?(--[a-z-]+)/gm)].map((m) => m[2]);
    expect(flags.length).toBeGreaterThanOrEqual(8);
    const table = section('## Command line');
    for (const flag of flags) expect(table).toContain(`\`${flag}`);
  });
});
