/**
 * Consumer projects: folders outside the workspace (no workspace link, no parent node_modules)
 * where a stack's own packages come from the registry and ours from the freshly packed tarballs,
 * both installed with npm, as a user installs a release.
 *
 * A stack's registry packages take minutes to install and change rarely, so the installed tree is
 * kept in ~/.cache/blockwire/consumers/<stack>-<hash of its package list>/ (override the root with
 * BLOCKWIRE_CACHE_DIR), the way the n8n end-to-end install is kept: installed into a staging folder
 * and renamed into place (a killed install is never reused), under a lock folder (two runs never
 * install the same stack at once). Every run copies that tree into a new temporary folder and
 * installs this run's tarballs into the copy, so what is tested is always what was just built.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { withInstallLock } from '@blockwire/testing/install-lock';
import { packPackage, publishedPackages, root } from '../../pack.js';

const COMPLETE_MARKER = '.blockwire-install-complete';
const LOCK_WAIT_MS = 15 * 60_000;
/** One npm command's limit: a registry that stops answering fails the test instead of hanging it. */
const NPM_TIMEOUT_MS = 8 * 60_000;

export interface StackSpec {
  /** The stack's name: the cache folder's and the test's. */
  name: string;
  /** What the registry gives: `{ express: '5.3.0' }`. Pinned, so a cached tree is the tested one. */
  dependencies: Record<string, string>;
  /**
   * Registry packages whose install script must run (`npm rebuild <name>` after the install; no
   * other package's runs): Bun's links its platform binary.
   */
  installScripts?: string[];
  /** Our packages it uses, by name (their own dependencies come with them). */
  blockwire: string[];
  /**
   * How its package.json starts: `npm init -y` (a newcomer's project; `type` is then what npm
   * writes) or a private package of the given module type.
   */
  init?: { kind: 'npm init -y'; type?: 'module' } | { kind: 'package.json'; type: 'module' | 'commonjs' };
}

export interface ConsumerProject {
  dir: string;
  /** Runs a command in the project (no shell), with its output in the error when it fails. */
  run(command: string, args: string[], options?: RunOptions): Promise<{ stdout: string; stderr: string }>;
  remove(): Promise<void>;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  cwd?: string;
}

function cacheRoot(): string {
  return join(process.env.BLOCKWIRE_CACHE_DIR ?? join(homedir(), '.cache', 'blockwire'), 'consumers');
}

/** npm and the commands it starts run with the Node running this test (the repo's Node 24). */
export function baseEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
    // Our tarballs' dependencies resolve from the npm cache when it has them.
    npm_config_prefer_offline: 'true',
  };
}

export async function run(
  command: string,
  args: string[],
  { env = baseEnv(), timeoutMs = NPM_TIMEOUT_MS, cwd }: RunOptions & { cwd: string },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const why = error.killed ? `was stopped after ${timeoutMs / 1000} s` : `failed (${error.code})`;
        reject(
          new Error(
            `${command} ${args.join(' ')} ${why} in ${cwd}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
          ),
        );
      },
    );
  });
}

/** The tarballs of this run, packed once per test file: package name → .tgz path. */
let packed: Promise<Map<string, string>> | undefined;
const packDir = mkdtempSync(join(tmpdir(), 'blockwire-consumer-tarballs-'));

export function tarballs(): Promise<Map<string, string>> {
  packed ??= (async () => {
    const found = new Map<string, string>();
    for (const { dir, manifest } of publishedPackages()) {
      if (manifest.n8n !== undefined) continue;
      found.set(manifest.name, await packPackage(dir, packDir));
    }
    return found;
  })();
  return packed;
}

export async function removeTarballs(): Promise<void> {
  await rm(packDir, { recursive: true, force: true });
}

function stackKey(spec: StackSpec, npmVersion: string): string {
  // What changes the installed tree: the pins, which of our packages (their dependencies come
  // along), how the project is made, and the npm that makes it.
  const key = JSON.stringify({
    dependencies: spec.dependencies,
    blockwire: [...spec.blockwire].sort(),
    installScripts: spec.installScripts ?? [],
    init: spec.init ?? null,
    npm: npmVersion,
  });
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** `npm install` of the tarballs copied into `<dir>/tarballs/`, by file: npm reads each one anew. */
async function installTarballs(dir: string, spec: StackSpec): Promise<void> {
  const all = await tarballs();
  const folder = join(dir, 'tarballs');
  mkdirSync(folder, { recursive: true });
  const files: string[] = [];
  for (const name of spec.blockwire) {
    const tarball = all.get(name);
    if (!tarball) throw new Error(`no tarball for ${name}: is it a published package of the workspace?`);
    cpSync(tarball, join(folder, basename(tarball)));
    files.push(`./tarballs/${basename(tarball)}`);
  }
  await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...files], { cwd: dir });
}

async function installStack(target: string, spec: StackSpec): Promise<void> {
  const staging = `${target}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const init = spec.init ?? { kind: 'package.json', type: 'module' };
  if (init.kind === 'npm init -y') {
    await run('npm', ['init', '-y'], { cwd: staging });
    if (init.type) await run('npm', ['pkg', 'set', `type=${init.type}`], { cwd: staging });
  } else {
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify({ name: `consumer-${spec.name}`, private: true, type: init.type }, null, 2)}\n`,
    );
  }
  const pins = Object.entries(spec.dependencies).map(([name, version]) => `${name}@${version}`);
  // No install scripts (as npm runs here by default): every stack runs without them.
  if (pins.length > 0) {
    await run('npm', ['install', '--ignore-scripts', '--save-exact', ...pins], { cwd: staging });
  }
  if (spec.installScripts?.length) await run('npm', ['rebuild', ...spec.installScripts], { cwd: staging });
  await installTarballs(staging, spec);
  writeFileSync(join(staging, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
  await rm(target, { recursive: true, force: true });
  renameSync(staging, target);
}

let npmVersion: Promise<string> | undefined;

/** The cached install of a stack (installing it the first time), as its folder. */
export async function cachedStack(spec: StackSpec): Promise<string> {
  npmVersion ??= run('npm', ['--version'], { cwd: root }).then(({ stdout }) => stdout.trim());
  const target = join(cacheRoot(), `${spec.name}-${stackKey(spec, await npmVersion)}`);
  await withInstallLock(target, {
    isComplete: () => existsSync(join(target, COMPLETE_MARKER)),
    install: async () => {
      const started = Date.now();
      process.stderr.write(`[consumers] installing the ${spec.name} stack into ${target} (one time)\n`);
      await installStack(target, spec);
      process.stderr.write(
        `[consumers] ${spec.name} installed in ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
    },
    waitMs: LOCK_WAIT_MS,
  });
  return target;
}

/**
 * A new project of the stack in a temporary folder: a copy of the cached tree with this run's
 * tarballs installed over it.
 */
export async function consumerProject(spec: StackSpec): Promise<ConsumerProject> {
  const cached = await cachedStack(spec);
  const dir = mkdtempSync(join(tmpdir(), `blockwire-consumer-${spec.name}-`));
  await run('cp', ['-a', `${cached}/.`, dir], { cwd: dir });
  await rm(join(dir, COMPLETE_MARKER), { force: true });
  await installTarballs(dir, spec);
  return {
    dir,
    run: (command, args, options = {}) => run(command, args, { ...options, cwd: options.cwd ?? dir }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
