/**
 * A receiver (the README's node:http one over SQLite, nothing added) killed with SIGKILL in the
 * middle of a stream, then started again: every transaction still reaches its final stage in
 * the callback, although the service redelivers only what was not answered 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bitcoinDelivery, txidOf } from './__fixtures__/bitcoin.js';
import { signBody } from './signature.js';

const SECRET = 'restart-secret';
const dist = join(import.meta.dirname, '..', '..', 'dist', 'webhooks.cjs');
const child = join(import.meta.dirname, '__fixtures__', 'sqlite-child.mjs');
const dir = mkdtempSync(join(tmpdir(), 'blockwire-restart-'));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const process of children.splice(0)) if (process.exitCode === null) process.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the receiver process; resolves with its port once it listens. */
async function startReceiver(dbPath: string, reportPath: string) {
  const process = spawn(
    globalThis.process.execPath,
    ['--no-warnings', child, dist, dbPath, 'serve', reportPath],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(process);
  const port = await new Promise<number>((resolve, reject) => {
    process.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const match = /listening (\d+)/.exec(chunk);
      if (match) resolve(Number(match[1]));
    });
    process.once('exit', (code) => reject(new Error(`the receiver exited with ${code} before listening`)));
  });
  const exited = new Promise<void>((resolve) => process.once('exit', () => resolve()));
  return { process, url: `http://127.0.0.1:${port}`, exited };
}

async function deliver(url: string, delivery: unknown): Promise<number> {
  const body = JSON.stringify(delivery);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': await signBody(body, SECRET) },
    body,
  });
  await response.text();
  return response.status;
}

/** Each txid's stages as the callbacks reported them (the report file). */
function reported(reportPath: string): Map<string, Set<string>> {
  const stages = new Map<string, Set<string>>();
  if (!existsSync(reportPath)) return stages;
  for (const line of readFileSync(reportPath, 'utf8').split('\n').filter(Boolean)) {
    const [txid, stage] = line.split(' ') as [string, string];
    stages.set(txid, (stages.get(txid) ?? new Set()).add(stage));
  }
  return stages;
}

describe('a receiver killed mid-stream and started again', () => {
  it('reports the final stage of every transaction, with no code beyond the README receiver', async () => {
    // 80 groups of 3 transactions, moving as a stream moves them: a group enters the mempool
    // while the one before is mined and the one three before is confirmed.
    const groups = Array.from({ length: 80 }, (_, g) => [0, 1, 2].map((i) => txidOf(5000 + g * 3 + i)));
    const deliveries: ReturnType<typeof bitcoinDelivery>[] = [];
    for (let step = 0; step < groups.length + 3; step++) {
      if (groups[step]) deliveries.push(bitcoinDelivery('mempool', groups[step]!));
      if (groups[step - 1]) deliveries.push(bitcoinDelivery('in-block', groups[step - 1]!));
      if (groups[step - 3]) deliveries.push(bitcoinDelivery('confirmed', groups[step - 3]!));
    }
    const dbPath = join(dir, 'receiver.sqlite');
    const reportPath = join(dir, 'report.txt');

    // First run: killed right after the 120th 200, its callbacks still running.
    const first = await startReceiver(dbPath, reportPath);
    const answered = 120;
    for (const delivery of deliveries.slice(0, answered))
      expect(await deliver(first.url, delivery)).toBe(200);
    first.process.kill('SIGKILL');
    await first.exited;

    // The kill did interrupt work: stages acknowledged with a 200 that no callback reported.
    const acknowledged = new Map<string, string>();
    for (const delivery of deliveries.slice(0, answered)) {
      const stage = delivery.confirmed
        ? 'confirmed'
        : delivery.block.hash === 'mempool'
          ? 'mempool'
          : 'in-block';
      for (const tx of delivery.transactions) acknowledged.set(`${tx.txid} ${stage}`, stage);
    }
    const afterCrash = reported(reportPath);
    const lost = [...acknowledged.keys()].filter((key) => {
      const [txid, stage] = key.split(' ') as [string, string];
      return !afterCrash.get(txid)?.has(stage);
    });
    expect(lost.length).toBeGreaterThan(0);

    // Second run on the same file. The service redelivers only what got no 200.
    const second = await startReceiver(dbPath, reportPath);
    for (const delivery of deliveries.slice(answered)) expect(await deliver(second.url, delivery)).toBe(200);
    await (await fetch(`${second.url}/idle`)).text();
    second.process.kill('SIGTERM');
    await second.exited;

    const final = reported(reportPath);
    const missingFinalStage = groups.flat().filter((txid) => !final.get(txid)?.has('confirmed'));
    expect(missingFinalStage).toEqual([]);
    // Nothing acknowledged before the crash went unreported either.
    expect(lost.filter((key) => !final.get(key.split(' ')[0]!)?.has(key.split(' ')[1]!))).toEqual([]);
  }, 60_000);
});
