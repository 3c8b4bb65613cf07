/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * n8n's verification: its scanner (`@n8n/scan-community-package`, pinned) on the tarball `pnpm
 * pack` builds, as n8n runs it before verifying a community node. And the size of what n8n loads.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NODE_FILE_BYTES } from './node-file-budget.ts';
import { analyzeSource, errorsByRule, scanPackedPackage } from './support/scan';

const packageDir = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  n8n: { nodes: string[] };
};

describe("n8n's verification scanner", () => {
  it('passes on the packed tarball, with no error', async () => {
    const result = await scanPackedPackage(packageDir);
    const byRule = errorsByRule(result.details);
    expect(
      { passed: result.passed, message: result.message, errorsByRule: Object.fromEntries(byRule) },
      result.details,
    ).toEqual({ passed: true, message: undefined, errorsByRule: {} });
  }, 120_000);

  it('finds what it is there to find: a restricted global, a console call, a secret', async () => {
    const byRule = Object.fromEntries(
      errorsByRule(
        await analyzeSource(
          "const apiKey = '9d3e5b7106c4a1f2e8b0';\nconsole.log(process.env.HOME);\nsetTimeout(() => {}, 1);\n",
        ),
      ),
    );
    expect(byRule).toEqual({
      '@n8n/community-nodes/no-hardcoded-secrets': 1,
      '@n8n/community-nodes/no-restricted-globals': 2,
      'no-console': 1,
    });
  }, 120_000);

  it.each(manifest.n8n.nodes)(`%s weighs at most ${MAX_NODE_FILE_BYTES / 1024} KB`, (file) => {
    expect(statSync(join(packageDir, file)).size).toBeLessThanOrEqual(MAX_NODE_FILE_BYTES);
  });

  it('the chunks the nodes share are loaded once: everything n8n requires weighs less than two self-contained node files could', () => {
    const required = new Set<string>();
    const visit = (file: string) => {
      if (required.has(file)) return;
      required.add(file);
      const source = readFileSync(file, 'utf8');
      for (const [, relative] of source.matchAll(/require\(['"](\.{1,2}\/[^'"]+)['"]\)/g))
        visit(join(dirname(file), relative!));
    };
    for (const file of manifest.n8n.nodes) visit(join(packageDir, file));
    const chunks = [...required].filter((file) => basename(file).startsWith('chunk-'));
    expect(chunks.length).toBeGreaterThan(0);
    const total = [...required].reduce((sum, file) => sum + statSync(file).size, 0);
    expect(total).toBeLessThanOrEqual(2 * MAX_NODE_FILE_BYTES);
  });
});
