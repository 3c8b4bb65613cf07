/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** What people type into n8n's nodes panel looking for these nodes (issue 21, point 6). */
const SEARCHED = ['bitcoin', 'ethereum', 'solana', 'token price', 'web3', 'crypto', 'blockchain'];

const CODEX_FILES = ['Blockwire/Blockwire.node.json', 'BlockwireTrigger/BlockwireTrigger.node.json'];

describe('codex: the nodes panel finds the nodes by what they are about', () => {
  for (const file of CODEX_FILES) {
    it(`${file} carries an alias for each term people search`, () => {
      const codex = JSON.parse(readFileSync(join(__dirname, '..', 'nodes', file), 'utf8')) as {
        alias?: unknown;
      };
      expect(Array.isArray(codex.alias)).toBe(true);
      const aliases = (codex.alias as unknown[]).map((alias) => String(alias).toLowerCase());
      for (const term of SEARCHED) expect(aliases, term).toContain(term);
    });
  }
});
