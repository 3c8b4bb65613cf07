#!/usr/bin/env node
/**
 * Whether `pnpm generate` leaves the tree as it found it: every generated file (endpoint indexes,
 * OpenAPI and OpenRPC documents, README tables, the n8n contract, the MCP snapshot) current with
 * what it is generated from. `npm test` runs it after the build.
 *
 * It runs the real `generate` script, then compares every file git sees as changed or new with
 * what it held before, so work in progress in a developer's tree is never reported (only what the
 * generator itself rewrote) and a clean clone is held to exactly `pnpm generate; git status`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function run(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}` }));
    child.on('close', (status) => resolve({ status: status ?? 1, output }));
  });
}

/** Files git sees as modified, added or untracked (not ignored), by path from `cwd`. */
async function changedFiles(cwd) {
  const { status, output } = await run(
    'git',
    ['status', '--porcelain=v1', '-z', '--untracked-files=all'],
    cwd,
  );
  if (status !== 0) throw new Error(`git status failed: ${output}`);
  return output
    .split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(3));
}

function fingerprint(cwd, file) {
  const path = join(cwd, file);
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'absent';
}

/**
 * Runs `command args` in the git work tree `cwd` and answers the files it changed, or fails with
 * the command's output when it does not succeed.
 */
export async function checkGenerated({ cwd, command, args }) {
  const before = new Map((await changedFiles(cwd)).map((file) => [file, fingerprint(cwd, file)]));
  const generated = await run(command, args, cwd);
  if (generated.status !== 0) return { ok: false, stale: [], output: generated.output };
  const stale = (await changedFiles(cwd)).filter((file) => before.get(file) !== fingerprint(cwd, file));
  return { ok: stale.length === 0, stale, output: generated.output };
}

async function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(join(root, '.git'))) {
    process.stdout.write('generated files: not a git checkout, not checked\n');
    process.exit(2);
  }
  const result = await checkGenerated({ cwd: root, command: 'pnpm', args: ['run', '--silent', 'generate'] });
  if (result.ok) {
    process.stdout.write('generated files: pnpm generate changed nothing\n');
    return;
  }
  process.stderr.write(
    result.stale.length > 0
      ? `generated files were stale; pnpm generate rewrote them (commit them):\n${result.stale.map((file) => `  ${file}`).join('\n')}\n`
      : `pnpm generate failed:\n${result.output.slice(-4000)}\n`,
  );
  process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
