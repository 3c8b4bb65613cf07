/**
 * Runs every example of the README's "Webhook kit" section (except the two that start a server
 * and never end; handler.test.ts covers those), so the README stays true.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Webhook kit'));
const examples = [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const runnable = examples.filter((code) => !code.includes('.listen('));

const coreDir = dirname(createRequire(import.meta.url).resolve('@blockwire/core/package.json'));
const streamsEntry = pathToFileURL(join(packageDir, 'dist', 'index.js')).href;
const coreEntry = pathToFileURL(join(coreDir, 'dist', 'index.js')).href;
const dir = mkdtempSync(join(tmpdir(), 'blockwire-webhooks-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(code: string, index: number): string {
  const file = join(dir, `example-${index}.mts`);
  writeFileSync(
    file,
    code
      .replaceAll("'@blockwire/streams'", `'${streamsEntry}'`)
      .replaceAll("'@blockwire/core'", `'${coreEntry}'`),
  );
  return execFileSync(process.execPath, ['--no-warnings', file], {
    cwd: dir,
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

describe('README "Webhook kit" examples', () => {
  it('has an example for every function, with node:http and Express receivers', () => {
    expect(examples.length).toBeGreaterThanOrEqual(11);
    expect(examples.filter((code) => code.includes('.listen(3000)'))).toHaveLength(2);
    expect(examples.some((code) => code.includes("from 'express'"))).toBe(true);
    for (const name of [
      'verifySignature',
      'signBody',
      'assertValidSignature',
      'isVerificationRequest',
      'parseBitcoinWebhook',
      'parseEvmWebhook',
      'bitcoinDeliveryStage',
      'isCoinbaseTransaction',
      'btcToSats',
      'satsToBtc',
      'createBitcoinTxTracker',
      'createSqliteTxStore',
      'createWebhookHandler',
    ]) {
      expect(
        examples.some((code) => code.includes(`${name}(`)),
        name,
      ).toBe(true);
    }
  });

  it.each(
    runnable.map((code, index) => ({
      code,
      index,
      first: code.split('\n').find((l) => l.includes('import {')),
    })),
  )('runs example $index ($first)', ({ code, index }) => {
    const out = run(code, index);
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toMatch(/undefined\n?$/);
  });

  it('prints what the comments say', () => {
    const amounts = run(runnable.find((code) => code.includes('btcToSats(0.1 + 0.2)'))!, 100);
    expect(amounts.split('\n')).toEqual([
      '248588n',
      '1n 1n 2100000000000000n',
      'true Invalid BTC amount 0.30000000000000004: has more than 8 decimals (a satoshi is 0.00000001 BTC)',
      '0.3',
      '0.00000001 1',
      '',
    ]);
    const tracker = run(
      runnable.find((code) => code.includes('createBitcoinTxTracker(); // in memory'))!,
      101,
    );
    expect(tracker).toContain("from: null,\n    to: 'mempool'");
    expect(tracker).toContain("from: 'mempool',\n    to: 'confirmed'");
    expect(tracker.split('\n').slice(-4)).toEqual(['[]', 'confirmed', '[]', '']);
  });
});
