import { getHashes } from 'node:crypto';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Keccak256, keccak256, nativeKeccak256, pureKeccak256, wasmOrPureKeccak256 } from './keccak.js';

const hexOf = async (hash: Keccak256, body: string | Uint8Array, secret: Uint8Array) =>
  bytesToHex(await hash(body, secret));

const NO_SECRET = new Uint8Array();
const SECRET = utf8ToBytes('sk_test_5f2c9a1b7e');

/** Every back-end this runtime has, and the one the kit picked. */
const backEnds: [string, Keccak256 | undefined][] = [
  ['node:crypto (OpenSSL)', nativeKeccak256],
  ['hash-wasm', wasmOrPureKeccak256],
  ['@noble/hashes', pureKeccak256],
  ['the kit’s choice', keccak256],
];
const present = backEnds.filter((entry): entry is [string, Keccak256] => entry[1] !== undefined);

afterEach(() => vi.unstubAllGlobals());

describe.each(backEnds)('keccak256 by %s', (_, hash) => {
  it.skipIf(!hash)('gives the published Keccak-256 digests, not SHA3-256', async () => {
    expect(await hexOf(hash!, '', NO_SECRET)).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(await hexOf(hash!, 'abc', NO_SECRET)).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
    // The same as bytes, and split between body and secret.
    expect(await hexOf(hash!, utf8ToBytes('ab'), utf8ToBytes('c'))).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });
});

describe('the back-ends agree', () => {
  const agree = async (body: string | Uint8Array, secret: Uint8Array) => {
    const digests = await Promise.all(present.map(([, hash]) => hexOf(hash, body, secret)));
    for (const [i, digest] of digests.entries()) expect(digest, present[i]![0]).toBe(digests[0]);
  };

  it('on random text (as UTF-8) and bytes, with random secrets', async () => {
    expect(present.length).toBeGreaterThanOrEqual(3);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.uint8Array({ maxLength: 300 })),
        fc.uint8Array({ maxLength: 40 }),
        async (body, secret) => agree(body, secret),
      ),
      { numRuns: 300 },
    );
  });

  it('across the 136-byte rate and at the three sizes the bench measures (1 KB, 50 KB, 1.6 MB)', async () => {
    for (const length of [135, 136, 137, 271, 272, 273]) await agree('x'.repeat(length), SECRET);
    for (const size of [1_000, 50_000, 1_650_000]) {
      await agree(
        new Uint8Array(size).map((_, i) => (i * 31) & 0xff),
        SECRET,
      );
    }
  });
});

describe('the keccak256 the kit uses', () => {
  it("is node:crypto's where its OpenSSL has keccak-256 (Node 24.22 and later), and only then", () => {
    expect(nativeKeccak256 !== undefined).toBe(getHashes().includes('keccak-256'));
    expect(keccak256).toBe(nativeKeccak256 ?? wasmOrPureKeccak256);
  });

  it.skipIf(!nativeKeccak256)('answers at once, never through a promise, where it is native', () => {
    for (const length of [0, 4095, 4096, 100_000]) {
      expect(keccak256('x'.repeat(length), SECRET)).toBeInstanceOf(Uint8Array);
    }
  });
});

describe('where WebAssembly compiled from bytes is refused (workerd, a strict CSP)', () => {
  it('answers the call that met the refusal with @noble/hashes, and every later one, never asking again', async () => {
    let asked = 0;
    const refuse = () => {
      asked++;
      return Promise.reject(new WebAssembly.CompileError('Wasm code generation disallowed by embedder'));
    };
    vi.stubGlobal('WebAssembly', { ...WebAssembly, compile: refuse, instantiate: refuse });
    vi.resetModules();
    const fresh = await import('./keccak.js');
    expect(await hexOf(fresh.wasmOrPureKeccak256, 'abc', NO_SECRET)).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
    const askedAtFirst = asked;
    expect(askedAtFirst).toBeGreaterThanOrEqual(1);
    // From then on synchronous, pure JavaScript.
    const later = fresh.wasmOrPureKeccak256('', NO_SECRET);
    expect(later).toBeInstanceOf(Uint8Array);
    expect(bytesToHex(later as Uint8Array)).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(asked).toBe(askedAtFirst);
  });
});
