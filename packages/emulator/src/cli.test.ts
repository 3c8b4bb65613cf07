import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from './test-support.js';

// The CLI is tested as it ships: the built file with its shebang.
const cli = join(import.meta.dirname, '..', 'dist', 'cli.js');
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[]) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build the emulator first (pnpm turbo run build)`);
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // biome-ignore lint/suspicious/noExplicitAny: the ready line is inspected freely
  const ready = new Promise<Record<string, any>>((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (!stdout.includes('\n')) return;
      try {
        resolve(JSON.parse(stdout.split('\n')[0]!));
      } catch (error) {
        reject(error);
      }
    });
    exited.then((code) => reject(new Error(`exited with ${code} before ready: ${stderr}`)));
  });
  // Not every test waits for readiness (--help exits at once): no unhandled rejection then.
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

describe('blockwire-emulator CLI', () => {
  it('prints exactly one JSON ready line, serves, and exits cleanly on SIGTERM with anvil stopped', async () => {
    const started = performance.now();
    const emu = start(['--port', '0', '--api-key', 'cli-key', '--seed', '3']);
    const ready = await emu.ready;
    const startupMs = performance.now() - started;
    expect(ready).toEqual({
      ready: true,
      apiKey: 'cli-key',
      urls: {
        evm: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/evm\/api\/v2\.2$/),
        solana: expect.stringMatching(/\/solana$/),
        streams: expect.stringMatching(/\/streams$/),
        node: expect.stringMatching(/\/node$/),
      },
      control: expect.stringMatching(/\/control$/),
    });
    // The issue asks for under 3 s; allow slack for a machine busy with other tests.
    expect(startupMs).toBeLessThan(10_000);
    const block = await call(`${ready.urls.node}/eth/cli-key`, {
      method: 'POST',
      body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
    });
    expect(block.body.result).toMatch(/^0x/);
    const entity = await call(`${ready.urls.evm}/entities/binance`, { key: 'cli-key' });
    expect(entity.status).toBe(200);

    // The children: anvil, and the watchdog that kills anvil should the CLI die without cleaning up.
    const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(emu.child.pid)], {
      encoding: 'utf8',
    })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid]) => pid);
    expect(children.filter(([, command]) => command === 'anvil')).toHaveLength(1);
    expect(children).toHaveLength(2);
    emu.child.kill('SIGTERM');
    expect(await emu.exited).toBe(0);
    expect(emu.output().stdout.trim().split('\n')).toHaveLength(1);
    for (const [pid] of children) expect(() => process.kill(Number(pid), 0)).toThrow();
    await expect(fetch(`${ready.control}/requests`)).rejects.toThrow();
  });

  it('runs without anvil and keeps state in a file across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
    try {
      const args = ['--no-anvil', '--state', join(dir, 'state.json')];
      const first = start(args);
      const ready = await first.ready;
      const node = await call(`${ready.urls.node}/eth/${ready.apiKey}`, { method: 'POST', body: {} });
      expect(node.status).toBe(503);
      const settings = await call(`${ready.urls.streams}/settings`, {
        method: 'POST',
        key: ready.apiKey,
        body: { region: 'ap-southeast-1' },
      });
      expect(settings.status).toBe(200);
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);

      const second = start(args);
      const again = await second.ready;
      const kept = await call(`${again.urls.streams}/settings`, {
        method: 'POST',
        key: again.apiKey,
        body: {},
      });
      expect(kept.body.region).toBe('ap-southeast-1');
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints help, and refuses a bad flag with exit code 2', async () => {
    const help = start(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.output().stdout).toContain('--strict-webhooks');
    const bad = start(['--port', 'eighty']);
    expect(await bad.exited, bad.output().stderr).toBe(2);
    expect(bad.output().stderr).toContain('--port must be an integer');
    // The README promises the usage with every bad flag, a bad value included.
    expect(bad.output().stderr).toContain('Usage: blockwire-emulator');
    const unknown = start(['--colour']);
    expect(await unknown.exited, unknown.output().stderr).toBe(2);
    expect(unknown.output().stderr).toContain('--colour');
  });
});
