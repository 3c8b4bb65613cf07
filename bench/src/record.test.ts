import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RUNS_END, RUNS_START, recordName, recordRun, runsBlock, runsOnRecord } from './record.ts';
import type { Comparison, Results } from './report.ts';

const comparison = (id: string, targets: [text: string, met: boolean][]) =>
  ({ id, targets: targets.map(([text, met]) => ({ text, met })) }) as unknown as Comparison;

function results(startedAt: string, cpuModel: string, comparisons: Comparison[]): Results {
  return {
    commit: 'abc1234',
    node: 'v24.22.3',
    machine: `2 × ${cpuModel}, 24 GiB, linux x64`,
    cpuModel,
    quick: false,
    repeat: 3,
    startedAt,
    durationSeconds: 1799.6,
    load: { start: 1.04, end: 1.96 },
    niceness: -10,
    cores: 2,
    comparisons,
  };
}

const dirs: string[] = [];
const resultsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-record-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('recordName', () => {
  it('names a run by its day (UTC) and CPU model, in characters safe in any file system', () => {
    const run = results('2026-12-03T23:59:59.000Z', 'AMD EPYC (family 25, model 17, stepping 1)', []);
    expect(recordName(run)).toBe('2026-12-03-amd-epyc-family-25-model-17-stepping-1.json');
    const slashes = results('2026-12-04T00:00:00.000Z', '../Intel(R) Xeon(R) @ 2.20GHz/..', []);
    expect(recordName(slashes)).toBe('2026-12-04-intel-r-xeon-r-2-20ghz.json');
  });
});

describe('recordRun and runsOnRecord', () => {
  it('keeps one file a day and machine kind, a later run replacing it, and lists them oldest first', () => {
    const dir = resultsDir();
    const amd = 'AMD EPYC (family 25, model 17, stepping 1)';
    recordRun(dir, results('2026-12-04T09:00:00.000Z', amd, [comparison('weight', [['small', false]])]));
    recordRun(dir, results('2026-12-03T09:00:00.000Z', amd, []));
    recordRun(dir, results('2026-12-04T18:00:00.000Z', amd, [comparison('weight', [['small', true]])]));
    recordRun(dir, results('2026-12-04T12:00:00.000Z', 'Intel Xeon', []));
    expect(readdirSync(join(dir, 'runs')).sort()).toEqual([
      '2026-12-03-amd-epyc-family-25-model-17-stepping-1.json',
      '2026-12-04-amd-epyc-family-25-model-17-stepping-1.json',
      '2026-12-04-intel-xeon.json',
    ]);
    const runs = runsOnRecord(dir);
    expect(runs.map((run) => run.results.startedAt)).toEqual([
      '2026-12-03T09:00:00.000Z',
      '2026-12-04T12:00:00.000Z',
      '2026-12-04T18:00:00.000Z',
    ]);
    // The file is the run's results as latest.json has them.
    const replaced = runs.at(-1)!;
    expect(JSON.parse(readFileSync(join(dir, 'runs', replaced.file), 'utf8')).comparisons[0].targets).toEqual(
      [{ text: 'small', met: true }],
    );
  });

  it('has nothing on record where no run went on record', () => {
    expect(runsOnRecord(resultsDir())).toEqual([]);
  });
});

describe('runsBlock', () => {
  it('lists every run with its targets met, then each target some run missed with the days it did', () => {
    const amd = 'AMD EPYC (family 25, model 17, stepping 1)';
    const first = results('2026-12-03T09:00:00.000Z', amd, [
      comparison('rest-overhead', [
        ['CPU ≥ 0.90', true],
        ['agreement', false],
      ]),
      comparison('weight', [['small', true]]),
    ]);
    const second = results('2026-12-04T09:00:00.000Z', 'Intel Xeon', [
      comparison('rest-overhead', [
        ['CPU ≥ 0.90', false],
        ['agreement', false],
      ]),
      comparison('weight', [['small', true]]),
    ]);
    const block = runsBlock([
      { file: '2026-12-03-amd.json', results: first },
      { file: '2026-12-04-intel-xeon.json', results: second },
    ]);
    expect(block.startsWith(RUNS_START)).toBe(true);
    expect(block.endsWith(RUNS_END)).toBe(true);
    expect(block).toContain('2 runs on record, on 2 days and 2 machine kinds:');
    expect(block).toContain(
      `| [2026-12-03](results/runs/2026-12-03-amd.json) | ${amd} | v24.22.3 | \`abc1234\` | 3 | 1800 s | 1.0 → 2.0 | 2 of 3 |`,
    );
    expect(block).toContain('| Intel Xeon | v24.22.3 | `abc1234` | 3 | 1800 s | 1.0 → 2.0 | 1 of 3 |');
    expect(block).toContain('- `rest-overhead`: agreement (2026-12-03, 2026-12-04)');
    expect(block).toContain('- `rest-overhead`: CPU ≥ 0.90 (2026-12-04)');
    expect(block).not.toContain('`weight`: small (');
  });

  it('says so when every run met every target', () => {
    const run = results('2026-12-03T09:00:00.000Z', 'Intel Xeon', [comparison('weight', [['small', true]])]);
    const block = runsBlock([{ file: 'a.json', results: run }]);
    expect(block).toContain('1 run on record, on 1 day and 1 machine kind:');
    expect(block).toContain('Every run on record met every target it had.');
  });
});
