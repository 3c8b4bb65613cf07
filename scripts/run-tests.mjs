#!/usr/bin/env node
// `npm test`: build, typecheck and lint every package (turbo), check that `pnpm generate` changes
// nothing (scripts/generate-check.mjs), run every test suite (vitest),
// and end with one plain line of totals over all of them, e.g. `212 passed, 0 failed, 1 skipped`.
// Neither step is silent for long: the build prints a line every 10 s once it takes more than a
// few seconds (progress.mjs), the test run one whenever no test file has finished for 10 s
// (heartbeat-reporter.ts). BLOCKWIRE_SKIP (packages/testing/src/skips.ts) leaves out the suites
// of tools this machine lacks, counted as skipped.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStep } from './progress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function finish(totals) {
  const line =
    `${totals.passed} passed, ${totals.failed} failed` +
    (totals.skipped ? `, ${totals.skipped} skipped` : '');
  process.stdout.write(`\n${line}\n`);
  process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
}

const extraArgs = process.argv.slice(2);
const { status: pipeline } = await runStep(
  bin('turbo'),
  ['run', 'build', 'typecheck', 'lint', '--output-logs=errors-only'],
  {
    prefix: 'npm test',
    what: 'building, typechecking and linting every package',
    expect: 'turbo; about 2 min on a fresh clone on 2 cores, seconds when cached',
    spawnOptions: { cwd: root },
  },
);
if (pipeline !== 0) {
  process.stderr.write('\nbuild, typecheck or lint failed: no test was run.\n');
  finish({ passed: 0, failed: 1, skipped: 0 });
}

// `pnpm generate` must leave the tree as it is: counted as one test, before the suites (which
// read some of what it writes).
const { status: generateStatus } = await runStep(
  process.execPath,
  [join(root, 'scripts', 'generate-check.mjs')],
  {
    prefix: 'npm test',
    what: 'checking that pnpm generate changes nothing',
    expect: 'about a minute',
    spawnOptions: { cwd: root },
  },
);
const generated = {
  passed: generateStatus === 0 ? 1 : 0,
  failed: generateStatus === 0 || generateStatus === 2 ? 0 : 1,
  skipped: generateStatus === 2 ? 1 : 0,
};

const workDir = mkdtempSync(join(tmpdir(), 'blockwire-tests-'));
const totalsFile = join(workDir, 'totals.json');
const { status } = await runStep(
  bin('vitest'),
  [
    'run',
    '--reporter=default',
    '--reporter=./scripts/totals-reporter.ts',
    '--reporter=./scripts/heartbeat-reporter.ts',
    ...extraArgs,
  ],
  {
    prefix: 'npm test',
    what: 'running every test suite',
    // The heartbeat reporter speaks for the run.
    quietMs: Number.POSITIVE_INFINITY,
    spawnOptions: { cwd: root, env: { ...process.env, BLOCKWIRE_TOTALS_FILE: totalsFile } },
  },
);
const totals = existsSync(totalsFile)
  ? JSON.parse(readFileSync(totalsFile, 'utf8'))
  : { passed: 0, failed: 1, skipped: 0 };
rmSync(workDir, { recursive: true, force: true });
if (status !== 0 && totals.failed === 0) totals.failed = 1;
for (const key of ['passed', 'failed', 'skipped']) totals[key] = (totals[key] ?? 0) + generated[key];
finish(totals);
