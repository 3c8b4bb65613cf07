import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evmTokenPrice } from '../fixtures.ts';
import { firstAnswer } from './cold-start.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwire-cold-start-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = (name: string, source: string) => {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
};

describe('firstAnswer', () => {
  it('times a fresh process to its line with the price and takes the CPU time it printed', async () => {
    const file = script(
      'answers.mjs',
      `console.log(JSON.stringify({ usdPrice: ${evmTokenPrice.usdPrice}, cpuMs: 12.5 }));`,
    );
    const run = await firstAnswer(file);
    expect(run.cpuMs).toBe(12.5);
    expect(run.figure).toBeGreaterThan(0);
  });

  it('fails on a wrong price and on a process that ends without one', async () => {
    const wrong = script('wrong.mjs', 'console.log(JSON.stringify({ usdPrice: 1, cpuMs: 1 }));');
    await expect(firstAnswer(wrong)).rejects.toThrow(/printed/);
    const silent = script('silent.mjs', 'process.exitCode = 3;');
    await expect(firstAnswer(silent)).rejects.toThrow(/exited with 3 before its answer/);
  });
});
