/**
 * `pnpm bench`: every comparison of issue 14 in one process run, against local servers on
 * 127.0.0.1 (and anvil), writing results/latest.json and results/latest.md.
 *
 *   node --expose-gc src/main.ts [--quick] [--repeat <n>] [--out <dir>] [--only <id,id>]
 *
 * --repeat n: runs every comparison n times; each comparison keeps every run's ratios and CPU
 * ratios (`repeats`), and its figures are those of the median run (by its first ratio).
 *
 * --quick: few rounds and small sizes, under a minute: a smoke test of the harness, not figures
 * to quote (it writes to results/quick/ unless --out says otherwise).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { constants, cpus, getPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeFigures } from './figures.ts';
import {
  commitDescription,
  cpuModel,
  loadAverage,
  machineDescription,
  pinClientAndServers,
  raisePriority,
} from './machine.ts';
import { runComparison } from './plan.ts';
import { recordRun } from './record.ts';
import { medianRun } from './repeat.ts';
import {
  COMPARISON_IDS,
  type Comparison,
  formatProblems,
  type Results,
  type Skipped,
  toMarkdown,
} from './report.ts';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// A run stopped by a signal (a timeout, Ctrl-C) still ends its servers and n8n: their 'exit'
// hooks run only on process.exit, which the default signal handlers never reach.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.once(signal, () => process.exit(128 + constants.signals[signal]));
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    only: { type: 'string' },
    repeat: { type: 'string', default: '1' },
  },
});
const quick = values.quick ?? false;
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1)
  throw new Error(`--repeat must be an integer >= 1, got ${values.repeat}`);
const outDir = resolve(values.out ?? join(benchDir, 'results', quick ? 'quick' : ''));
const only = values.only?.split(',') ?? [...COMPARISON_IDS];
for (const id of only) {
  if (!(COMPARISON_IDS as readonly string[]).includes(id)) throw new Error(`unknown comparison ${id}`);
}

// A quick run is a smoke test (it runs inside npm test): it asserts no speed and takes no priority.
const niceness = quick ? getPriority(0) : raisePriority();
const pinning = quick ? undefined : pinClientAndServers();
const started = performance.now();
const startedAt = new Date().toISOString();
const loadAtStart = loadAverage();
const machine = machineDescription();
process.stderr.write(
  `[bench] ${machine}; Node ${process.version}; load average ${loadAtStart.toFixed(1)} at the start\n`,
);
const comparisons: Comparison[] = [];
const failures: { id: string; error: string }[] = [];
const skipped: Skipped[] = [];
for (const id of COMPARISON_IDS) {
  if (!only.includes(id)) continue;
  const t0 = performance.now();
  process.stderr.write(`[bench] ${id} …\n`);
  let comparison: Comparison;
  try {
    const runs: Comparison[] = [];
    let skip: string | undefined;
    for (let i = 0; i < repeat && skip === undefined; i++) {
      const outcome = await runComparison(id, quick);
      if ('skipped' in outcome) skip = outcome.skipped;
      else runs.push(outcome);
    }
    if (skip !== undefined) {
      skipped.push({ id, reason: skip });
      process.stderr.write(`[bench] ${id} left out: ${skip}\n`);
      continue;
    }
    comparison = medianRun(runs);
  } catch (error) {
    // One comparison that cannot run must not cost the others' figures: recorded, and the run fails.
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    failures.push({ id, error: text });
    process.stderr.write(`[bench] ${id} FAILED: ${text}\n`);
    continue;
  }
  comparison.durationSeconds = (performance.now() - t0) / 1000;
  comparisons.push(comparison);
  const ratios = Object.entries(comparison.ratios)
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(', ');
  process.stderr.write(
    `[bench] ${id}: ${comparison.blockwire.toFixed(2)} ${comparison.unit}; ratios ${ratios} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
}

const loadAtEnd = loadAverage();
process.stderr.write(`[bench] load average ${loadAtEnd.toFixed(1)} at the end\n`);
const results: Results = {
  commit: commitDescription(benchDir),
  node: process.version,
  machine,
  cpuModel: cpuModel(),
  quick,
  repeat,
  startedAt,
  durationSeconds: (performance.now() - started) / 1000,
  load: { start: loadAtStart, end: loadAtEnd },
  niceness,
  ...(pinning ? { pinning } : {}),
  cores: cpus().length,
  comparisons,
  ...(failures.length > 0 ? { failures } : {}),
  ...(skipped.length > 0 ? { skipped } : {}),
};
const command = `pnpm bench${quick ? ' --quick' : ''}${repeat > 1 ? ` --repeat ${repeat}` : ''}`;
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(outDir, 'latest.md'), toMarkdown(results, command));
process.stdout.write(toMarkdown(results, command));
process.stderr.write(`[bench] wrote ${join(outDir, 'latest.json')} and latest.md\n`);
// A full run of every comparison into results/ is what the READMEs quote, and goes on record.
if (!quick && values.out === undefined && only.length === COMPARISON_IDS.length && failures.length === 0) {
  process.stderr.write(`[bench] put the run on record: ${recordRun(outDir, results)}\n`);
  writeFigures(benchDir, results);
  process.stderr.write('[bench] rewrote the figures in README.md and bench/README.md\n');
}
const problems = only.length === COMPARISON_IDS.length ? formatProblems(results) : [];
if (problems.length > 0)
  process.stderr.write(`[bench] the results are incomplete:\n${problems.join('\n')}\n`);
// Sockets of the official SDK's HTTP agent stay open: nothing else is left to wait for.
process.exit(failures.length > 0 || problems.length > 0 ? 1 : 0);
