import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientProcess,
  spreadOverProcesses,
  startClientProcess,
  startClientProcesses,
} from './client-process.ts';
import type { RestArgs, RestConfig } from './comparisons/rest-clients.ts';
import { evmTokenPrice } from './fixtures.ts';
import { listen, type RunningServer, sendJson } from './servers.ts';

const restClients = new URL('./comparisons/rest-clients.ts', import.meta.url);

describe('startClientProcess', () => {
  let price = evmTokenPrice.usdPrice;
  let server: RunningServer;
  let served = 0;
  beforeAll(async () => {
    server = await listen((_req, res) => {
      served++;
      sendJson(res, 200, Buffer.from(JSON.stringify({ ...evmTokenPrice, usdPrice: price })));
    });
  });
  afterAll(() => server.close());

  const start = (name: string) =>
    startClientProcess<RestConfig, RestArgs>(restClients, name, { serverUrl: server.url });

  it('runs a contender in another process and returns its figure with the CPU that process spent', async () => {
    served = 0;
    const client = await start('blockwire');
    try {
      const run = await client.run({ calls: 40, concurrency: 4 });
      expect(served).toBe(40);
      expect(run.figure).toBeGreaterThan(0);
      // Building and checking 40 calls costs the child some CPU, and far less than the whole run's wall time allows.
      expect(run.cpuMs).toBeGreaterThan(0);
      expect(run.cpuMs).toBeLessThan(40_000 / run.figure + 1_000);
    } finally {
      await client.close();
    }
  });

  it("passes a run's failure on with the contender's name, and the client stays usable", async () => {
    const client: ClientProcess<RestArgs> = await start('undici-request');
    try {
      price = 1;
      await expect(client.run({ calls: 3, concurrency: 1 })).rejects.toThrow(
        /undici-request \(client process\): .*wrong price/,
      );
      price = evmTokenPrice.usdPrice;
      await expect(client.run({ calls: 3, concurrency: 1 })).resolves.toMatchObject({
        figure: expect.any(Number),
      });
    } finally {
      price = evmTokenPrice.usdPrice;
      await client.close();
    }
  });

  it('restarts a contender in a fresh process that serves the next runs, the old one gone', async () => {
    const client = await start('undici-request');
    try {
      const first = client.pid!;
      await client.run({ calls: 3, concurrency: 1 });
      await client.restart();
      expect(client.pid).not.toBe(first);
      expect(() => process.kill(first, 0)).toThrow();
      served = 0;
      await expect(client.run({ calls: 3, concurrency: 1 })).resolves.toMatchObject({
        figure: expect.any(Number),
      });
      expect(served).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('starts the process with the Node options it is given, and its restarts too', async () => {
    const optionsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const client = await startClientProcess<RestConfig, RestArgs>(
      restClients,
      'undici-request',
      { serverUrl: server.url },
      { nodeOptions: ['--no-memory-reducer', '--max-semi-space-size=8'] },
    );
    try {
      expect(optionsOf(client.pid!)).toEqual(
        expect.arrayContaining(['--no-memory-reducer', '--max-semi-space-size=8']),
      );
      await client.restart();
      expect(optionsOf(client.pid!)).toEqual(
        expect.arrayContaining(['--no-memory-reducer', '--max-semi-space-size=8']),
      );
      await expect(client.run({ calls: 3, concurrency: 1 })).resolves.toMatchObject({
        figure: expect.any(Number),
      });
    } finally {
      await client.close();
    }
    const plain = await start('undici-request');
    try {
      expect(optionsOf(plain.pid!)).not.toContain('--no-memory-reducer');
    } finally {
      await plain.close();
    }
  });

  it('refuses a contender its module does not have, its process gone by then', async () => {
    const before = childPids();
    await expect(start('nobody')).rejects.toThrow(/no REST client nobody/);
    expect(startedSince(before)).toEqual([]);
    // Not a key its table inherits either.
    await expect(start('constructor')).rejects.toThrow(/no REST client constructor/);
    expect(startedSince(before)).toEqual([]);
  });
});

/** The live processes this one started (from /proc: each one's parent id). */
function childPids(): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (name) state ppid …": the name may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) === process.pid && state !== 'Z') children.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return children;
}

/** The live children this process has now that it did not have at `before`. */
function startedSince(before: readonly number[]): number[] {
  return childPids().filter((pid) => !before.includes(pid));
}

describe('startClientProcesses', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await listen((_req, res) => sendJson(res, 200, Buffer.from(JSON.stringify(evmTokenPrice))));
  });
  afterAll(() => server.close());
  const config = () => ({ serverUrl: server.url });

  it('starts every contender in a process of its own, restarts them for a stretch, and ends them all', async () => {
    const before = childPids();
    const started = await startClientProcesses<RestConfig, RestArgs>(
      restClients,
      ['blockwire', 'undici-request'],
      config(),
    );
    const pids = () => Object.values(started.clients).map((client) => client.pid!);
    try {
      const first = pids();
      expect(Object.keys(started.clients)).toEqual(['blockwire', 'undici-request']);
      expect(new Set(first).size).toBe(2);
      expect(childPids()).toEqual(expect.arrayContaining(first));
      const spread = started.spreadOver(3);
      expect(spread.processes).toBe(3);
      await spread.restart();
      expect(pids().filter((pid) => first.includes(pid))).toEqual([]);
      await expect(
        started.clients['undici-request']!.run({ calls: 3, concurrency: 1 }),
      ).resolves.toMatchObject({
        figure: expect.any(Number),
      });
    } finally {
      await started.close();
    }
    expect(startedSince(before)).toEqual([]);
  });

  it('ends the processes it started when a later one fails to start', async () => {
    const before = childPids();
    await expect(
      startClientProcesses(restClients, ['blockwire', 'undici-request', 'nobody'], config()),
    ).rejects.toThrow(/no REST client nobody/);
    expect(startedSince(before)).toEqual([]);
  });
});

describe('spreadOverProcesses', () => {
  it('restarts every client that exists when a stretch starts, even ones added after it was made', async () => {
    const restarted: string[] = [];
    const client = (name: string) =>
      ({ restart: async () => void restarted.push(name) }) as unknown as ClientProcess<never>;
    const clients: Record<string, ClientProcess<never> | undefined> = { a: client('a') };
    const spread = spreadOverProcesses(5, clients);
    clients.b = client('b');
    clients.c = undefined;
    expect(spread.processes).toBe(5);
    await spread.restart();
    expect(restarted).toEqual(['a', 'b']);
  });
});
