import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as kit from './index.js';

const dist = join(import.meta.dirname, '..', '..', 'dist');

describe('the webhook kit exports', () => {
  it('every function of the issue, by its fixed name', () => {
    for (const name of [
      'verifySignature',
      'signBody',
      'assertValidSignature',
      'SignatureError',
      'isVerificationRequest',
      'parseBitcoinWebhook',
      'parseEvmWebhook',
      'bitcoinDeliveryStage',
      'isCoinbaseTransaction',
      'btcToSats',
      'satsToBtc',
      'createBitcoinTxTracker',
      'createMemoryTxStore',
      'createSqliteTxStore',
      'createWebhookHandler',
      'toNodeListener',
      'toFetchHandler',
    ]) {
      expect(Object.entries(kit).find(([key]) => key === name)?.[1], name).toBeTypeOf('function');
    }
  });

  it('the same names from the package root and the ./webhooks subpath, in ESM and CommonJS (hashing included), with one SignatureError', () => {
    const script = `
      const rootCjs = require(${JSON.stringify(join(dist, 'index.cjs'))});
      const subCjs = require(${JSON.stringify(join(dist, 'webhooks.cjs'))});
      Promise.all([import(${JSON.stringify(join(dist, 'index.js'))}), import(${JSON.stringify(join(dist, 'webhooks.js'))})]).then(([rootEsm, subEsm]) => {
        const names = (m) => Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort();
        const missing = names(subEsm).filter((k) => !(k in rootCjs) || !(k in rootEsm) || !(k in subCjs));
        const error = new subCjs.SignatureError();
        Promise.all([rootCjs.signBody({ a: 'ü' }, 's'), subEsm.signBody({ a: 'ü' }, 's')]).then(([cjsSig, esmSig]) => process.stdout.write(JSON.stringify({
          sameSignature: cjsSig === esmSig && /^0x[0-9a-f]{64}$/.test(cjsSig),
          missing,
          crossBuild: error instanceof subEsm.SignatureError && error instanceof rootEsm.SignatureError,
          name: error.name,
        })));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(out).toEqual({ sameSignature: true, missing: [], crossBuild: true, name: 'SignatureError' });
  });

  it("takes the payload check of core's runtime, whose compiled field checks make a large delivery's check fast", () => {
    // Taking only core's runtime-free entry would leave the payload check on its loop: a
    // 3,000-transaction Bitcoin block's went from under 1.5 to 7 ms, and the bench's receiver fell
    // from 0.91 to 0.79 of the hand-rolled one. See handler.ts.
    for (const entry of ['webhooks.js', 'webhooks.cjs']) {
      expect(externalImportsOf(entry), entry).toContain('@blockwire/core/internal');
    }
  });
});

/** The packages a built entry loads, following its own chunks (`./chunk-….js`) to the end. */
function externalImportsOf(entry: string): string[] {
  const external = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(dist, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import|require\()\s*["']([^"']+)["']/g)) {
      if (specifier!.startsWith('./')) visit(specifier!.slice(2));
      else external.add(specifier!);
    }
  };
  visit(entry);
  return [...external];
}
