/**
 * Real PostgreSQL and Redis servers for tests, from Debian's packages: each test run starts its own
 * in a temp folder on a free 127.0.0.1 port and stops it after, so nothing depends on a server the
 * machine happens to run. A package that is missing is installed with `apt-get` (the machines this
 * runs on allow Debian's registry and nothing else).
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cannotInstall, type Tool } from './skips.js';

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A detached shell that runs `cleanup` once this process is gone, however it ended: a test runner
 * that kills its worker (a timeout) runs no `exit` handler, and the server would outlive it.
 * Returns a function that ends the watchdog (call it once you cleaned up yourself).
 */
function cleanUpWhenGone(cleanup: string): () => void {
  const watchdog = spawn(
    'sh',
    ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${cleanup}`],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return () => {
    try {
      watchdog.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  };
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

// Long commands run asynchronously: a test worker whose event loop is blocked for a whole install
// (or a slow start on a busy machine) misses vitest's own RPC deadline and fails the run.
const execFileAsync = promisify(execFile);

/**
 * Installs a Debian package unless `isInstalled()` already says it is there, saying so first
 * (an install takes a minute or more). When it cannot — not root, no package lists, no network —
 * the error names the tool and the switch that skips the suites needing it.
 */
export async function ensureDebianPackage(
  name: string,
  isInstalled: () => boolean,
  tool: Tool = name as Tool,
): Promise<void> {
  if (isInstalled()) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      cannotInstall(
        tool,
        `${name} is not installed and this is not root (as root: apt-get install -y ${name})`,
      ),
    );
  }
  process.stderr.write(
    `[apt-get] installing ${name} for the tests that need it (one time, about a minute)\n`,
  );
  const install = () =>
    execFileAsync('apt-get', ['install', '-y', '--no-install-recommends', name], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      maxBuffer: 64 * 1024 * 1024,
    });
  try {
    try {
      await install();
    } catch {
      // A fresh machine has no package lists yet.
      await execFileAsync('apt-get', ['update'], { maxBuffer: 64 * 1024 * 1024 });
      await install();
    }
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? String(error);
    throw new Error(cannotInstall(tool, `apt-get install -y ${name} failed: ${detail}`));
  }
  if (!isInstalled()) throw new Error(`apt-get installed ${name}, but it still cannot be found`);
}

function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

export interface PostgresServer {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` (trust authentication on loopback). */
  url(database?: string): string;
  /** Creates a database (idempotent) and returns its URL. */
  createDatabase(name: string): string;
  /**
   * `pg_ctl restart -m fast`: every session is ended (57P01), the server is down for a moment, then
   * back on the same port with the same data — what a PostgreSQL upgrade or failover does to clients.
   */
  restart(): Promise<void>;
  /** Stops the server at once and removes its folder. Safe to call twice. */
  stop(): void;
}

/**
 * Starts a PostgreSQL cluster of its own: `initdb` in a temp folder, `pg_ctl start` on a free port,
 * listening on 127.0.0.1 only. PostgreSQL refuses to run as root, so as root it runs as the
 * `postgres` user that Debian's package creates.
 */
export async function startPostgres(
  options: { settings?: Record<string, string | number> } = {},
): Promise<PostgresServer> {
  await ensureDebianPackage('postgresql', () => postgresBinDir() !== undefined);
  const bin = postgresBinDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'blockwire-postgres-'));
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? (JSON.parse(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })) as number)
    : undefined;
  if (owner !== undefined) chownSync(dir, owner, owner);
  chmodSync(dir, 0o700);
  const asOwner = (tool: string, args: string[]): [string, string[]] => {
    const command = join(bin, tool);
    return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  };
  const run = (tool: string, args: string[]) => execFileAsync(...asOwner(tool, args), { cwd: dir });
  // Only for the exit handler, which cannot wait; `pg_ctl stop -m immediate` takes milliseconds.
  const runNow = (tool: string, args: string[]) =>
    execFileSync(...asOwner(tool, args), { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  let stopped = false;
  const pgCtl = [...(asRoot ? ['runuser', '-u', 'postgres', '--'] : []), join(bin, 'pg_ctl')];
  const endWatchdog = cleanUpWhenGone(
    `${[...pgCtl, 'stop', '-D', dataDir, '-m', 'immediate', '-w'].map(shellQuote).join(' ')} >/dev/null 2>&1; rm -rf ${shellQuote(dir)}`,
  );
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stop);
    endWatchdog();
    try {
      runNow('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
    } catch {
      // Not running (it failed to start, or was stopped by hand).
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A test runner that dies before its afterAll must not leave a server behind.
  process.once('exit', stop);
  try {
    await run('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const settings = {
      port,
      listen_addresses: '127.0.0.1',
      unix_socket_directories: dir,
      max_connections: 200,
      ...options.settings,
    };
    const serverOptions = Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' ');
    await run('pg_ctl', [
      'start',
      '-D',
      dataDir,
      '-w',
      '-t',
      '60',
      '-l',
      join(dir, 'postgres.log'),
      '-o',
      serverOptions,
    ]);
  } catch (error) {
    stop();
    throw new Error(`PostgreSQL did not start: ${describeFailure(error)}`);
  }
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const exists = execFileSync(
        join(bin, 'psql'),
        [
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
          '-tAc',
          `SELECT 1 FROM pg_database WHERE datname = '${name}'`,
        ],
        { encoding: 'utf8' },
      ).trim();
      if (exists !== '1') {
        execFileSync(
          join(bin, 'psql'),
          ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE ${name}`],
          {
            stdio: 'pipe',
          },
        );
      }
      return url(name);
    },
    restart() {
      // Not execFileSync: the caller's requests go on while the server goes down and comes back.
      const [command, ...args] = [...pgCtl, 'restart', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'];
      return new Promise<void>((resolve, reject) => {
        execFile(command!, [...args, '-l', join(dir, 'postgres.log')], { cwd: dir }, (error) =>
          error ? reject(new Error(`pg_ctl restart failed: ${describeFailure(error)}`)) : resolve(),
        );
      });
    },
    stop,
  };
}

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the server and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts `redis-server` (Debian's `redis-server` package) on a free 127.0.0.1 port, with no persistence. */
export async function startRedis(): Promise<RedisServer> {
  await ensureDebianPackage('redis-server', () => existsSync('/usr/bin/redis-server'), 'redis');
  const dir = mkdtempSync(join(tmpdir(), 'blockwire-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killAtExit = () => child.kill('SIGKILL');
  process.once('exit', killAtExit);
  const endWatchdog = cleanUpWhenGone(`kill -9 ${child.pid} 2>/dev/null; rm -rf ${shellQuote(dir)}`);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start in 20 s:\n${output}`)),
      20_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  }).catch((error) => {
    endWatchdog();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  child.stdout?.resume();
  child.stderr?.resume();
  let stopped: Promise<void> | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        process.removeListener('exit', killAtExit);
        endWatchdog();
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }).then(() => rmSync(dir, { recursive: true, force: true }));
      return stopped;
    },
  };
}

function describeFailure(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  return stderr || (error instanceof Error ? error.message : String(error));
}
