import { ValidationError } from '@blockwire/core';
import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUnits, hexToBigInt, hexToNumber } from './convert.js';
import { toChecksumAddress } from './inputs.js';
import { keccak256, keccak256Hex } from './keccak.js';

describe('hex quantities as numbers', () => {
  it('converts exactly, and refuses a number that would be rounded', () => {
    expect(hexToBigInt('0x21d9501c9886321b7bc')).toBe(9_990_425_628_451_111_286_716n);
    expect(hexToNumber('0x7a69')).toBe(31337);
    expect(() => hexToNumber('0x20000000000000')).toThrow(/past Number.MAX_SAFE_INTEGER: use hexToBigInt/);
    expect(() => hexToBigInt('12')).toThrow(ValidationError);
  });

  it.each([
    [1_500_000_000_000_000_000n, 18, '1.5'],
    [1n, 18, '0.000000000000000001'],
    [0n, 6, '0'],
    [123_456_789n, 0, '123456789'],
    [-2_500_000n, 6, '-2.5'],
    ['0x21d9501c9886321b7bc', 18, '9990.425628451111286716'],
    [2n ** 256n - 1n, 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
  ])('formatUnits(%s, %s) = %s, every digit kept', (amount, decimals, text) => {
    expect(formatUnits(amount, decimals)).toBe(text);
  });
});

describe('keccak256 and EIP-55', () => {
  it('hashes as Ethereum does', () => {
    expect(keccak256Hex('')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(keccak256Hex('abc')).toBe('0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    // Longer than one 136-byte block: the padding lands in the second.
    expect(keccak256Hex('x'.repeat(200))).toBe(
      '0x3c3800defb6a25a70a2737e0716eeb5d270559ad3cad8f6abddac58802d7158e',
    );
    expect(keccak256Hex('Transfer(address,address,uint256)')).toBe(
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    );
  });

  it("is @noble/hashes' keccak_256 on every length around the block size, and on any bytes", () => {
    for (const length of [0, 1, 134, 135, 136, 137, 271, 272, 273, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(keccak256(bytes), `length ${length}`).toEqual(keccak_256(bytes));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        expect(keccak256(bytes)).toEqual(keccak_256(bytes));
      }),
    );
  });

  // The examples of EIP-55 itself.
  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('%s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
  });
});
