import { getHashes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Keccak256, keccak256, NATIVE_FROM_LENGTH, nativeKeccak256, wasmKeccak256 } from './keccak.js';

// A third keccak256, pure JS, that neither implementation shares code with.
const reference = (body: string | Uint8Array, secret: Uint8Array) =>
  bytesToHex(keccak_256(concatBytes(typeof body === 'string' ? utf8ToBytes(body) : body, secret)));

const hexOf = async (hash: Keccak256, body: string | Uint8Array, secret: Uint8Array) =>
  bytesToHex(await hash(body, secret));

const NO_SECRET = new Uint8Array();
const SECRET = utf8ToBytes('sk_test_5f2c9a1b7e');

const implementations: [string, Keccak256 | undefined][] = [
  ['OpenSSL (node:crypto)', nativeKeccak256],
  ['hash-wasm', wasmKeccak256],
];

describe.each(implementations)('keccak256 by %s', (_, hash) => {
  it.skipIf(!hash)('gives the published Keccak-256 digests, not SHA3-256', async () => {
    expect(await hexOf(hash!, '', NO_SECRET)).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(await hexOf(hash!, 'abc', NO_SECRET)).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });

  it.skipIf(!hash)(
    'hashes the body and then the secret, text as UTF-8, as the pure-JS reference does',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.uint8Array({ maxLength: 300 })),
          fc.uint8Array({ maxLength: 40 }),
          async (body, secret) => {
            expect(await hexOf(hash!, body, secret)).toBe(reference(body, secret));
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it.skipIf(!hash)('agrees with the reference across the 136-byte rate and on a 1.6 MB body', async () => {
    for (const length of [135, 136, 137, 271, 272, 273]) {
      const body = 'x'.repeat(length);
      expect(await hexOf(hash!, body, SECRET)).toBe(reference(body, SECRET));
    }
    const block = new Uint8Array(1_650_000).map((_, i) => (i * 31) & 0xff);
    expect(await hexOf(hash!, block, SECRET)).toBe(reference(block, SECRET));
  });
});

describe('the keccak256 receivers use', () => {
  it("has node:crypto's where its OpenSSL has keccak-256 (Node 24), and only then", () => {
    expect(nativeKeccak256 !== undefined).toBe(getHashes().includes('keccak-256'));
  });

  it('gives the reference digest for short and long bodies, before and after hash-wasm has loaded', async () => {
    const short = 'a'.repeat(NATIVE_FROM_LENGTH - 1);
    const long = 'b'.repeat(NATIVE_FROM_LENGTH);
    for (const body of [short, long, short, long]) {
      expect(bytesToHex(await keccak256(body, SECRET))).toBe(reference(body, SECRET));
    }
  });

  it.skipIf(!nativeKeccak256)(
    'answers at once, never through a promise, when a native one is there',
    async () => {
      await wasmKeccak256('', NO_SECRET); // loaded: short bodies go to hash-wasm now
      for (const length of [0, NATIVE_FROM_LENGTH - 1, NATIVE_FROM_LENGTH, 100_000]) {
        expect(keccak256('x'.repeat(length), SECRET)).toBeInstanceOf(Uint8Array);
      }
    },
  );
});
