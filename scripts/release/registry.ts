/**
 * A private npm registry (verdaccio) on 127.0.0.1 for the release test: no uplinks, so a client
 * pointed at it can never reach the public registry. verdaccio is installed once per user into a
 * cache folder keyed by its version (~65 MB, ~20 s) and reused, apart from the workspace's own
 * dependencies: its package.json (scripts/release/harness/package.json) is not a published one.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cannotInstall } from '@blockwire/testing/skips';

const harness = join(import.meta.dirname, 'harness');

export interface Registry {
  url: string;
  /** An `.npmrc` body that points every client at this registry, with a throwaway token. */
  npmrc: string;
  close(): Promise<void>;
}

/** The installed verdaccio for the pinned version, installing it on first use. */
export async function ensureVerdaccio(): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(harness, 'package.json'), 'utf8'));
  const version = manifest.dependencies.verdaccio as string;
  const home = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'blockwire',
    `verdaccio-${version}`,
  );
  const bin = join(home, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  if (existsSync(bin)) return bin;
  // Install into a fresh folder and move it into place, so an interrupted install is never reused.
  const staging = mkdtempSync(join(tmpdir(), 'blockwire-verdaccio-'));
  cpSync(join(harness, 'package.json'), join(staging, 'package.json'));
  // Not execFileSync: a test worker blocked for the whole install misses vitest's RPC deadline.
  process.stderr.write(`[verdaccio] installing verdaccio ${version} into ${home} (one time)\n`);
  try {
    await promisify(execFile)(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: staging },
    );
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(cannotInstall('verdaccio', `npm install failed: ${(error as Error).message}`));
  }
  mkdirSync(join(home, '..'), { recursive: true });
  rmSync(home, { recursive: true, force: true });
  cpSync(staging, home, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  return bin;
}

export async function startRegistry(workDir: string): Promise<Registry> {
  const bin = await ensureVerdaccio();
  const port = await freePort();
  const storage = join(workDir, 'storage');
  const config = join(workDir, 'config.yaml');
  writeFileSync(join(workDir, 'htpasswd'), '');
  writeFileSync(
    config,
    [
      `storage: ${storage}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(workDir, 'htpasswd')}`,
      '    max_users: -1',
      'uplinks: {}',
      'packages:',
      "  '@*/*':",
      '    access: $all',
      '    publish: $all',
      '    unpublish: $all',
      "  '**':",
      '    access: $all',
      '    publish: $all',
      '    unpublish: $all',
      'web:',
      '  enable: false',
      'middlewares:',
      '  audit:',
      '    enabled: false',
      'max_body_size: 200mb',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilUp(url, child, output);
  return {
    url,
    npmrc: `registry=${url}\n//127.0.0.1:${port}/:_authToken=throwaway-release-test-token\n`,
    close: () => stop(child),
  };
}

async function waitUntilUp(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited: ${output.join('')}`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`verdaccio did not answer within 30 s: ${output.join('')}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
