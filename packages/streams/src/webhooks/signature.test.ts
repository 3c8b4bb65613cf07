import { BlockwireError } from '@blockwire/core';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { CONFIRMED_DELIVERY, MEMPOOL_DELIVERY } from './__fixtures__/bitcoin.js';
import { SignatureError } from './errors.js';
import {
  assertValidSignature,
  signatureBytesOf,
  signBody,
  verifyRawSignature,
  verifySignature,
} from './signature.js';

// A second, independent keccak256 (pure JS) to check hash-wasm against.
const reference = (text: string) => `0x${bytesToHex(keccak_256(utf8ToBytes(text)))}`;
const SECRET = 'sk_test_5f2c9a1b7e';

function flipOneChar(text: string, index: number): string {
  const c = text[index]!;
  const replacement = c === '0' ? '1' : c === 'a' ? 'b' : c === 'x' ? 'y' : '0';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('the reference keccak256', () => {
  it('matches the published Keccak-256 vectors, which differ from SHA3-256', () => {
    expect(reference('')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(reference('abc')).toBe('0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    // SHA3-256 pads differently: same sponge, different digest.
    expect(bytesToHex(sha3_256(utf8ToBytes('')))).toBe(
      'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a',
    );
  });
});

describe('signBody', () => {
  it('is 0x + keccak256(JSON.stringify(body) + secret), not SHA3-256', async () => {
    const signature = await signBody(MEMPOOL_DELIVERY, SECRET);
    expect(signature).toBe(reference(JSON.stringify(MEMPOOL_DELIVERY) + SECRET));
    expect(signature).not.toBe(
      `0x${bytesToHex(sha3_256(utf8ToBytes(JSON.stringify(MEMPOOL_DELIVERY) + SECRET)))}`,
    );
    expect(signature).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('hashes the known vectors through the body + secret concatenation', async () => {
    // JSON.stringify("a") is '"a"'; with secret 'bc' the hashed text is '"a"bc'.
    expect(await signBody('"a"', 'bc')).toBe(reference('"a"bc'));
    expect(await signBody({}, '')).toBe(reference('{}'));
  });

  it('signs the re-serialized JSON of a raw string, not its bytes on the wire', async () => {
    const raw = '{ "b" : 1,\n  "a" : [1.0, 2e0, "x"] }';
    expect(await signBody(raw, SECRET)).toBe(reference('{"b":1,"a":[1,2,"x"]}' + SECRET));
    expect(await signBody(Buffer.from(raw), SECRET)).toBe(await signBody(raw, SECRET));
  });

  it('hashes unicode as UTF-8', async () => {
    const body = { memo: 'Zahlung für Kaffee ☕ — 比特币 🚀', name: 'Ωμέγα' };
    expect(await signBody(body, 'sëcret✓')).toBe(reference(JSON.stringify(body) + 'sëcret✓'));
    const raw = JSON.stringify(body);
    expect(
      await verifySignature({ body: raw, signature: await signBody(body, 'sëcret✓'), secret: 'sëcret✓' }),
    ).toBe(true);
  });

  it('keeps key order: the same keys in another order sign differently', async () => {
    const first = await signBody('{"streamId":"s","chainId":"c"}', SECRET);
    const second = await signBody('{"chainId":"c","streamId":"s"}', SECRET);
    expect(first).toBe(reference('{"streamId":"s","chainId":"c"}' + SECRET));
    expect(second).not.toBe(first);
    // Integer-like keys come first in any JavaScript re-serialization, the service's included.
    expect(await signBody('{"b":1,"2":2,"1":3}', SECRET)).toBe(reference('{"1":3,"2":2,"b":1}' + SECRET));
  });

  it('is fast enough for a 1.6 MB block delivery and agrees with the reference there', async () => {
    const big = {
      ...CONFIRMED_DELIVERY,
      transactions: Array.from({ length: 1500 }, () => CONFIRMED_DELIVERY.transactions[1]),
    };
    expect(JSON.stringify(big).length).toBeGreaterThan(1_500_000);
    expect(await signBody(big, SECRET)).toBe(reference(JSON.stringify(big) + SECRET));
  });
});

describe('verifySignature', () => {
  const body = CONFIRMED_DELIVERY;
  const raw = JSON.stringify(body, null, 2);

  it('accepts the bytes exactly as the service sent them, and the same body re-indented on the way', async () => {
    const signature = await signBody(body, SECRET);
    const sent = JSON.stringify(body);
    for (const received of [
      sent,
      Buffer.from(sent),
      new TextEncoder().encode(sent).buffer,
      raw,
      Buffer.from(raw),
    ]) {
      expect(await verifySignature({ body: received, signature, secret: SECRET })).toBe(true);
      expect(await verifySignature({ body: received, signature, secret: `${SECRET}x` })).toBe(false);
    }
    // The same text with one value changed: neither way accepts it.
    const tampered = sent.replace('"confirmed":true', '"confirmed":false');
    expect(tampered).not.toBe(sent);
    expect(await verifySignature({ body: tampered, signature, secret: SECRET })).toBe(false);
    expect(await verifySignature({ body: Buffer.from(tampered), signature, secret: SECRET })).toBe(false);
  });

  it('never takes text with a lone surrogate for the bytes the service signed', async () => {
    // U+FFFD is what a lone surrogate becomes in UTF-8: the hashes of the raw text would be equal.
    const signed = { memo: '\ufffd' };
    const signature = await signBody(signed, SECRET);
    expect(await verifySignature({ body: '{"memo":"\ud800"}', signature, secret: SECRET })).toBe(false);
    expect(await verifySignature({ body: JSON.stringify(signed), signature, secret: SECRET })).toBe(true);
  });

  it('accepts the right signature for a parsed or a raw body, in any hex case', async () => {
    const signature = await signBody(body, SECRET);
    expect(await verifySignature({ body, signature, secret: SECRET })).toBe(true);
    expect(await verifySignature({ body: raw, signature, secret: SECRET })).toBe(true);
    expect(await verifySignature({ body: Buffer.from(raw), signature, secret: SECRET })).toBe(true);
    expect(
      await verifySignature({ body, signature: signature.toUpperCase().replace('0X', '0x'), secret: SECRET }),
    ).toBe(true);
    expect(await verifySignature({ body, signature: signature.toUpperCase(), secret: SECRET })).toBe(true);
  });

  it('rejects one changed byte of the body, the secret or the signature', async () => {
    const text = JSON.stringify(body);
    const signature = await signBody(text, SECRET);
    const at = text.indexOf('0.001');
    const tamperedBody = text.slice(0, at) + '0.002' + text.slice(at + 5);
    expect(tamperedBody.length).toBe(text.length);
    expect(await verifySignature({ body: tamperedBody, signature, secret: SECRET })).toBe(false);
    expect(await verifySignature({ body: text, signature, secret: flipOneChar(SECRET, 3) })).toBe(false);
    for (const index of [2, 30, 65]) {
      expect(
        await verifySignature({ body: text, signature: flipOneChar(signature, index), secret: SECRET }),
      ).toBe(false);
    }
  });

  it('resolves false, never throws, for a missing, short, long or non-hex signature or bad JSON', async () => {
    const signature = await signBody(body, SECRET);
    for (const bad of [
      undefined,
      null,
      '',
      '0x',
      signature.slice(0, -2),
      `${signature}00`,
      `0x${'g'.repeat(64)}`,
      ' ',
    ]) {
      await expect(verifySignature({ body, signature: bad, secret: SECRET })).resolves.toBe(false);
    }
    await expect(verifySignature({ body: '{not json', signature, secret: SECRET })).resolves.toBe(false);
    await expect(verifySignature({ body: undefined, signature, secret: SECRET })).resolves.toBe(false);
    await expect(verifySignature({ body, signature: 42 as unknown as string, secret: SECRET })).resolves.toBe(
      false,
    );
  });
});

describe('assertValidSignature', () => {
  it('resolves for a valid signature and rejects with a SignatureError otherwise', async () => {
    const signature = await signBody(MEMPOOL_DELIVERY, SECRET);
    await expect(
      assertValidSignature({ body: MEMPOOL_DELIVERY, signature, secret: SECRET }),
    ).resolves.toBeUndefined();

    const wrong = assertValidSignature({ body: MEMPOOL_DELIVERY, signature, secret: 'other' });
    await expect(wrong).rejects.toBeInstanceOf(SignatureError);
    await expect(wrong).rejects.toBeInstanceOf(BlockwireError);
    await expect(wrong).rejects.toMatchObject({
      name: 'SignatureError',
      message: expect.stringMatching(/does not match/),
    });
    await expect(
      assertValidSignature({ body: MEMPOOL_DELIVERY, signature: undefined, secret: SECRET }),
    ).rejects.toThrow(/no x-signature/);
  });
});

describe('a receiver checking against several secrets', () => {
  it('hashes each delivery with the secret it is given, one after the other', async () => {
    const signature = await signBody(MEMPOOL_DELIVERY, SECRET);
    const body = JSON.stringify(MEMPOOL_DELIVERY);
    for (const [secret, valid] of [
      [SECRET, true],
      ['another', false],
      [SECRET, true],
      ['é', false],
    ] as const) {
      expect(await verifyRawSignature({ body, signature, secret }), secret).toBe(valid);
    }
    expect(await verifyRawSignature({ body, signature: await signBody(body, 'é'), secret: 'é' })).toBe(true);
  });
});

describe('signatureBytesOf', () => {
  it('reads every hex digit, in either case, into its byte', () => {
    const digits = '0123456789abcdefABCDEF';
    const hex = Array.from({ length: 64 }, (_, i) => digits[(i * 7) % digits.length]).join('');
    expect(signatureBytesOf(`0x${hex}`)).toEqual(new Uint8Array(Buffer.from(hex, 'hex')));
    expect(signatureBytesOf(`0X${hex.toUpperCase()}`)).toEqual(new Uint8Array(Buffer.from(hex, 'hex')));
  });

  it('refuses what is not 64 hex digits', () => {
    for (const header of [
      '0x' + 'g'.repeat(64),
      '0x' + 'a'.repeat(63),
      `0x${'a'.repeat(63)}g`,
      `0x${'a'.repeat(63)}:`,
      `0x${'a'.repeat(63)}@`,
      `0x${'a'.repeat(63)}\u0130`,
      `1x${'a'.repeat(64)}`,
      '',
      undefined,
      'ab'.repeat(40),
    ]) {
      expect(signatureBytesOf(header), header).toBeUndefined();
    }
  });

  it('takes the digits with or without 0x, and around them blanks', () => {
    const hex = 'ab'.repeat(32);
    const bytes = new Uint8Array(32).fill(0xab);
    for (const header of [hex, ` 0x${hex}\t`, `0X${hex} `]) expect(signatureBytesOf(header)).toEqual(bytes);
  });
});
