#!/usr/bin/env node
// `npm test`: build, typecheck and lint every package (turbo), run every test suite (vitest),
// and end with one plain line of totals over all of them, e.g. `212 passed, 0 failed, 1 skipped`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (command, args, env = process.env) =>
  spawnSync(command, args, { stdio: 'inherit', cwd: root, env }).status ?? 1;

function finish(totals) {
  const line =
    `${totals.passed} passed, ${totals.failed} failed` +
    (totals.skipped ? `, ${totals.skipped} skipped` : '');
  process.stdout.write(`\n${line}\n`);
  process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
}

const extraArgs = process.argv.slice(2);
const pipeline = run(bin('turbo'), ['run', 'build', 'typecheck', 'lint', '--output-logs=errors-only']);
if (pipeline !== 0) {
  process.stderr.write('\nbuild, typecheck or lint failed: no test was run.\n');
  finish({ passed: 0, failed: 1, skipped: 0 });
}

const workDir = mkdtempSync(join(tmpdir(), 'blockwire-tests-'));
const totalsFile = join(workDir, 'totals.json');
const status = run(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=./scripts/totals-reporter.ts', ...extraArgs],
  { ...process.env, BLOCKWIRE_TOTALS_FILE: totalsFile },
);
const totals = existsSync(totalsFile)
  ? JSON.parse(readFileSync(totalsFile, 'utf8'))
  : { passed: 0, failed: 1, skipped: 0 };
rmSync(workDir, { recursive: true, force: true });
if (status !== 0 && totals.failed === 0) totals.failed = 1;
finish(totals);
