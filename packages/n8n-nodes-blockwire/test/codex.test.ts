import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** What people type into n8n's nodes panel looking for these nodes (issue 21, point 6). */
const SEARCHED = ['bitcoin', 'ethereum', 'solana', 'token price', 'web3', 'crypto', 'blockchain'];

const CODEX_FILES = ['Blockwire/Blockwire.node.json', 'BlockwireTrigger/BlockwireTrigger.node.json'];

describe('codex: the nodes panel finds the nodes by what they are about', () => {
  for (const file of CODEX_FILES) {
    it(`${file} carries an alias for each term people search`, () => {
      const codex = JSON.parse(readFileSync(new URL(`../nodes/${file}`, import.meta.url), 'utf8')) as {
        alias?: unknown;
      };
      expect(Array.isArray(codex.alias)).toBe(true);
      const aliases = (codex.alias as unknown[]).map((alias) => String(alias).toLowerCase());
      for (const term of SEARCHED) expect(aliases, term).toContain(term);
    });
  }
});
