// The harness itself, run the quick way: every comparison must produce numbers and the files must
// have the format issue 14 fixes. No figure is judged here: speed is measured by `pnpm bench`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isN8nInstalled } from '../../packages/n8n-nodes-blockwire/e2e/install-n8n.ts';
import { COMPARISON_IDS, formatProblems } from './report.ts';

const main = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');
const out = mkdtempSync(join(tmpdir(), 'blockwire-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('pnpm bench --quick', () => {
  it('runs every comparison and writes latest.json and latest.md in the issue’s format', async () => {
    // Only n8n-items may be left out, and only while n8n is not installed (see plan.ts).
    const n8nInstalled = isN8nInstalled();
    // Not spawnSync: a worker blocked for the whole run misses vitest's own RPC deadline (60 s).
    const run = await promisify(execFile)(process.execPath, ['--expose-gc', main, '--quick', '--out', out], {
      encoding: 'utf8',
      // About 3 min under load since cold-start and n8n-items joined; judged on its format, not its time.
      timeout: 840_000,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`pnpm bench --quick failed: ${error.message}\n${error.stderr ?? ''}`);
    });
    // On a failure, what the run printed is the message.
    expect(run.stderr, run.stderr).not.toContain('FAILED');

    const results = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8'));
    expect(formatProblems(results)).toEqual([]);
    const skipped = (results.skipped ?? []).map((s: { id: string }) => s.id);
    expect(skipped).toEqual(n8nInstalled ? [] : ['n8n-items']);
    expect(results.comparisons.map((c: { id: string }) => c.id)).toEqual(
      COMPARISON_IDS.filter((id) => !skipped.includes(id)),
    );
    expect(results.node).toBe(process.version);

    const markdown = readFileSync(join(out, 'latest.md'), 'utf8');
    for (const id of COMPARISON_IDS) expect(markdown).toContain(`\`${id}\``);
    expect(markdown).toContain('pnpm bench --quick');
  }, 900_000);
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
    ...(id === 'weight' ? {} : { cpuRatios: { ...references } }),
  });
  const valid = {
    commit: 'abc',
    node: 'v24',
    machine: 'm',
    comparisons: [
      comparison('rest-overhead', { 'undici-dispatch': 1, 'undici-request': 1, fetch: 1, moralis: 1 }),
      comparison('solana-scale', { 'undici-concurrent': 1, sequential: 1 }),
      comparison('json-rpc', { viem: 1, ethers: 1, 'undici-dispatch': 1, 'undici-request': 1 }),
      comparison('webhook-intake', { moralis: 1, 'hand-rolled-native': 1 }),
      comparison('keccak', { 'hash-wasm': 1, noble: 1 }),
      comparison('weight', { 'moralis-modular': 1, moralis: 1 }),
      comparison('cold-start', { 'moralis-modular': 1, fetch: 1 }),
      comparison('n8n-items', { 'http-request-node': 1, 'http-request-aggregate': 1 }),
      comparison('rest-memory', { 'undici-dispatch': 1 }),
    ],
  };

  it('accepts a complete file', () => {
    expect(formatProblems(valid)).toEqual([]);
  });

  it('accepts a comparison left out with a reason in a quick run only', () => {
    const withoutN8n = { ...valid, comparisons: valid.comparisons.filter((c) => c.id !== 'n8n-items') };
    const skipped = [{ id: 'n8n-items', reason: 'n8n is not installed' }];
    expect(formatProblems({ ...withoutN8n, quick: true, skipped })).toEqual([]);
    expect(formatProblems({ ...withoutN8n, quick: false, skipped })).toEqual([
      'comparison n8n-items is missing',
    ]);
    expect(formatProblems({ ...withoutN8n, quick: true })).toEqual(['comparison n8n-items is missing']);
  });

  it('names a missing comparison, a missing reference, a figure that is not a number and a missing commit', () => {
    const broken: Partial<typeof valid> & Pick<typeof valid, 'comparisons'> = structuredClone(valid);
    delete broken.commit;
    broken.comparisons = broken.comparisons.filter((c) => c.id !== 'weight');
    delete (broken.comparisons[2]!.references as Record<string, number>).ethers;
    (broken.comparisons[0]!.ratios as Record<string, unknown>)['undici-request'] = Number.NaN;
    delete (broken.comparisons[1]! as { cpuRatios?: unknown }).cpuRatios;
    expect(formatProblems(broken)).toEqual([
      'commit is not a non-empty string',
      'rest-overhead.ratios.undici-request is not a positive number',
      'solana-scale.cpuRatios is not an object',
      'json-rpc.references.ethers is missing',
      'json-rpc: references (undici-dispatch,undici-request,viem) and ratios (ethers,undici-dispatch,undici-request,viem) name different things',
      'comparison weight is missing',
    ]);
  });
});
