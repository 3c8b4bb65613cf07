// The harness itself, run the quick way: every comparison must produce numbers and the files must
// have the format issue 14 fixes. No figure is judged here: speed is measured by `pnpm bench`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPARISON_IDS, formatProblems } from './report.ts';

const main = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');
const out = mkdtempSync(join(tmpdir(), 'blockwire-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('pnpm bench --quick', () => {
  it('runs every comparison and writes latest.json and latest.md in the issue’s format', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', main, '--quick', '--out', out], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    // On a failure, what the run printed is the message.
    expect(run.stderr, run.stderr).not.toContain('FAILED');
    expect(run.status, `${run.error ?? ''}\n${run.stderr}`).toBe(0);

    const results = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8'));
    expect(formatProblems(results)).toEqual([]);
    expect(results.comparisons.map((c: { id: string }) => c.id)).toEqual([...COMPARISON_IDS]);
    expect(results.node).toBe(process.version);

    const markdown = readFileSync(join(out, 'latest.md'), 'utf8');
    for (const id of COMPARISON_IDS) expect(markdown).toContain(`\`${id}\``);
    expect(markdown).toContain('pnpm bench --quick');
  }, 150_000);
});

describe('formatProblems', () => {
  const comparison = (id: string, references: Record<string, number>) => ({
    id,
    title: id,
    metric: 'm',
    unit: 'u',
    higherIsBetter: true,
    blockwire: 1,
    references,
    ratios: { ...references },
  });
  const valid = {
    commit: 'abc',
    node: 'v24',
    machine: 'm',
    comparisons: [
      comparison('rest-overhead', { undici: 1, moralis: 1 }),
      comparison('solana-scale', { sequential: 1 }),
      comparison('json-rpc', { viem: 1, ethers: 1, undici: 1 }),
      comparison('webhook-intake', { moralis: 1 }),
      comparison('weight', { moralis: 1 }),
    ],
  };

  it('accepts a complete file', () => {
    expect(formatProblems(valid)).toEqual([]);
  });

  it('names a missing comparison, a missing reference, a figure that is not a number and a missing commit', () => {
    const broken: Partial<typeof valid> & Pick<typeof valid, 'comparisons'> = structuredClone(valid);
    delete broken.commit;
    broken.comparisons = broken.comparisons.filter((c) => c.id !== 'weight');
    delete (broken.comparisons[2]!.references as Record<string, number>).ethers;
    (broken.comparisons[0]!.ratios as Record<string, unknown>).undici = Number.NaN;
    expect(formatProblems(broken)).toEqual([
      'commit is not a non-empty string',
      'rest-overhead.ratios.undici is not a positive number',
      'json-rpc.references.ethers is missing',
      'json-rpc: references (undici,viem) and ratios (ethers,undici,viem) name different things',
      'comparison weight is missing',
    ]);
  });
});
