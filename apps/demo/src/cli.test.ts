/**
 * `npm run demo` as a user runs it, as real processes: it prints one URL, and Ctrl-C (SIGINT) or
 * SIGTERM — to the demo, to the bootstrap, or to an `npm`-style `sh -c` that dies without passing
 * it on — stops every process it started, anvil included.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readyIn } from './cli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'blockwire-demo-cli-'));
/** What each test started, with every process below it once it was ready. */
const started: { child: ChildProcess; tree: number[] }[] = [];

afterEach(() => {
  // A failed test must not leave its demo (or its anvil) running.
  for (const { child, tree } of started.splice(0)) {
    for (const pid of [child.pid, ...tree]) {
      if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  }
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every process below `pid`, from /proc (Linux). */
function descendants(pid: number): { pid: number; command: string }[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: { pid: number; command: string }[] = [];
  const visit = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      found.push({ pid: child, command: commandOf(child) });
      visit(child);
    }
  };
  visit(pid);
  return found;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Running (not a zombie waiting for its parent to read its exit). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Starts a command like a user would and resolves once it printed the page's URL. */
async function startDemoProcess(command: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', BLOCKWIRE_DEMO_DATA_DIR: dataDir };
  delete env.BLOCKWIRE_API_KEY;
  // Set by the bootstrap that started this test run (npm test): the demo would count from then.
  delete env.BLOCKWIRE_LAUNCHED_AT;
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const record = { child, tree: [] as number[] };
  started.push(record);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = await waitUntil(() => /Open http:\/\/127\.0\.0\.1:\d+\//.test(stdout), 90_000);
  record.tree = descendants(child.pid!).map((p) => p.pid);
  if (!ready) throw new Error(`the demo did not start:\n${stdout}\n${stderr}`);
  return { child, exited, output: () => stdout, errors: () => stderr };
}

/** Runs node with `args` to its end. */
function runToEnd(
  args: string[],
  extraEnv: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  delete env.BLOCKWIRE_API_KEY;
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  // One that does not refuse to start would run on: it is stopped, and the test fails on its code.
  const timer = setTimeout(() => child.kill('SIGINT'), 30_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

describe('readyIn', () => {
  it('counts from the launch the bootstrap gives, and from the start without one', () => {
    expect(readyIn(1_000_000, 1_006_500, String(1_000_000 - 110_000))).toBe(
      'ready in 116.5 s: 110.0 s to install and build, 6.5 s to start',
    );
    for (const launched of [undefined, '', 'soon', String(2_000_000)]) {
      expect(readyIn(1_000_000, 1_000_500, launched)).toBe('ready in 0.5 s');
    }
  });
});

describe.skipIf(process.platform !== 'linux')('npm run demo, stopped', () => {
  it('prints one loopback URL, and on Ctrl-C stops the demo and anvil, exit code 0', async () => {
    const demo = await startDemoProcess(process.execPath, ['scripts/demo.mjs']);
    const urls = demo.output().match(/https?:\/\/\S+/g) ?? [];
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(demo.output()).toContain('Local emulator: no API key, no network.');
    const page = await fetch(urls[0]!);
    expect(page.status).toBe(200);

    // A second demo on the same data folder, or on a port in use, says why it cannot start.
    const port = new URL(urls[0]!).port;
    const second = await runToEnd(['apps/demo/dist/main.js'], {
      BLOCKWIRE_DEMO_DATA_DIR: dataDir,
      PORT: '0',
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^The demo could not start: Another demo \(process \d+\) is running with the data folder /,
    );
    const busy = await runToEnd(['apps/demo/dist/main.js'], {
      BLOCKWIRE_DEMO_DATA_DIR: join(dataDir, 'other'),
      PORT: port,
    });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(
      `The demo could not start: Port ${port} is in use: set PORT to another one, or PORT=0 for a free one.`,
    );

    const processes = descendants(demo.child.pid!);
    expect(processes.some((p) => p.command.includes('anvil'))).toBe(true);
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(demo.errors()).toContain('Ctrl-C: stopping the demo, the emulator and anvil');
    const left = () => processes.filter((p) => isRunning(p.pid));
    expect(await waitUntil(() => left().length === 0, 10_000), JSON.stringify(left())).toBe(true);
  }, 120_000);

  it('stops everything on a SIGTERM to the bootstrap, which waits until all is gone', async () => {
    const before = Date.now();
    const demo = await startDemoProcess(process.execPath, ['scripts/bootstrap.mjs', 'demo:start']);
    // The whole wait is printed (install and build included), not only the demo's own start.
    const waited = (Date.now() - before) / 1000;
    const [, total, setup, start] =
      /ready in (\d+\.\d) s: (\d+\.\d) s to install and build, (\d+\.\d) s to start;/.exec(demo.output()) ??
      [];
    expect(Number(total)).toBeLessThanOrEqual(waited + 0.1);
    expect(Number(total)).toBeGreaterThanOrEqual(waited - 3);
    expect(Number(setup) + Number(start)).toBeCloseTo(Number(total), 0);
    const processes = descendants(demo.child.pid!);
    expect(processes.some((p) => p.command.includes('anvil'))).toBe(true);
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
    // The bootstrap exits last: nothing of the group is left when it is gone.
    expect(processes.filter((p) => isRunning(p.pid))).toEqual([]);
  }, 120_000);

  it('stops everything when the sh -c in front of it dies of a SIGTERM without passing it on (what npm does)', async () => {
    const shell = existsSync('/bin/sh') ? '/bin/sh' : 'sh';
    const demo = await startDemoProcess(shell, [
      '-c',
      `"${process.execPath}" scripts/bootstrap.mjs demo:start`,
    ]);
    const processes = descendants(demo.child.pid!);
    expect(processes.some((p) => p.command.includes('anvil'))).toBe(true);
    demo.child.kill('SIGTERM');
    await demo.exited;
    const left = () => processes.filter((p) => isRunning(p.pid));
    expect(await waitUntil(() => left().length === 0, 15_000), JSON.stringify(left())).toBe(true);
  }, 120_000);
});
