import { ValidationError } from '@blockwire/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { btcToSats, satsToBtc } from './amounts.js';

const MAX_SATS = 21_000_000n * 100_000_000n;

describe('btcToSats', () => {
  it('is exact for the values people get wrong with floats', () => {
    expect(btcToSats(0.1)).toBe(10_000_000n);
    expect(btcToSats(0.3)).toBe(30_000_000n);
    expect(btcToSats(1e-7)).toBe(10n);
    expect(btcToSats(1e-8)).toBe(1n);
    expect(btcToSats(5e-8)).toBe(5n);
    expect(btcToSats(1.5e-7)).toBe(15n);
    expect(btcToSats(21_000_000)).toBe(MAX_SATS);
    expect(btcToSats(20_999_999.99999999)).toBe(MAX_SATS - 1n);
    expect(btcToSats(0.00248588)).toBe(248_588n);
    expect(btcToSats(1.15)).toBe(115_000_000n); // 1.15 * 1e8 is 114999999.99999999 in floats
    expect(btcToSats(0)).toBe(0n);
    expect(btcToSats(-0)).toBe(0n);
    expect(btcToSats(1e21)).toBe(10n ** 29n);
  });

  it('reads strings exactly, exponents included', () => {
    expect(btcToSats('0.00000001')).toBe(1n);
    expect(btcToSats('21000000')).toBe(MAX_SATS);
    expect(btcToSats('1.')).toBe(100_000_000n);
    expect(btcToSats('.5')).toBe(50_000_000n);
    expect(btcToSats('1E-8')).toBe(1n);
    expect(btcToSats('12.5e-3')).toBe(1_250_000n);
    expect(btcToSats('0.000000010000')).toBe(1n); // trailing zeros are not extra precision
    expect(btcToSats('99999999999999999999.99999999')).toBe(9_999_999_999_999_999_999_999_999_999n);
  });

  it('rejects a sum like 0.1 + 0.2: its shortest decimal has more than 8 decimals', () => {
    expect(0.1 + 0.2).toBe(0.30000000000000004);
    expect(() => btcToSats(0.1 + 0.2)).toThrow(ValidationError);
    expect(() => btcToSats(0.1 + 0.2)).toThrow(/more than 8 decimals/);
    expect(() => btcToSats(1e-9)).toThrow(/more than 8 decimals/);
    expect(() => btcToSats('0.000000001')).toThrow(/more than 8 decimals/);
  });

  it('rejects negatives, NaN, Infinity and non-numbers with a ValidationError', () => {
    for (const bad of [-1e-8, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => btcToSats(bad)).toThrow(ValidationError);
    }
    for (const bad of ['-0.1', '', '.', 'abc', '1,5', ' 1', '0x10', '1e', 'Infinity', '+1']) {
      expect(() => btcToSats(bad), bad).toThrow(ValidationError);
    }
    expect(() => btcToSats(null as unknown as number)).toThrow(ValidationError);
    expect(() => btcToSats(1n as unknown as number)).toThrow(ValidationError);
  });

  it('answers hostile strings with a ValidationError, not a hang or a RangeError', () => {
    // 200 000 zeros before a digit: a trailing-zeros regex would backtrack quadratically (minutes).
    const longFraction = `0.${'0'.repeat(200_000)}1`;
    expect(() => btcToSats(longFraction)).toThrow(/more than 8 decimals/);
    expect(btcToSats(`0.00000001${'0'.repeat(200_000)}`)).toBe(1n);
    expect(btcToSats(`${'0'.repeat(200_000)}1.5`)).toBe(150_000_000n);
    // Exponents that would pad a gigabyte of zeros.
    expect(() => btcToSats('1e-999999999')).toThrow(ValidationError);
    expect(() => btcToSats('1e999999999')).toThrow(/too large/);
    expect(btcToSats('1e-8')).toBe(1n);
    expect(btcToSats('100000000e-16')).toBe(1n);
    expect(btcToSats('0.0000000000000001e8')).toBe(1n);
    expect(btcToSats('0e999999999')).toBe(0n);
    expect(btcToSats('1e308')).toBe(10n ** 316n);
  });

  it('is exact for every amount of whole satoshis up to 21 million BTC, as number and as string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_SATS }), (sats) => {
        const text = satsToBtc(sats);
        expect(btcToSats(text)).toBe(sats);
        // The decimal as the JSON parser reads it into a float, then back.
        expect(btcToSats(Number(text))).toBe(sats);
        expect(btcToSats(JSON.parse(`{"v":${text}}`).v)).toBe(sats);
      }),
      { numRuns: 20_000 },
    );
  });

  it('is exact for every one of the first 200 000 satoshis, where exponent notation appears', () => {
    for (let sats = 0n; sats <= 200_000n; sats++) {
      if (btcToSats(Number(satsToBtc(sats))) !== sats) expect(satsToBtc(sats)).toBe('exact');
    }
    expect(String(Number(satsToBtc(5n)))).toBe('5e-8');
  });
});

describe('satsToBtc', () => {
  it('prints a decimal string without trailing zeros', () => {
    expect(satsToBtc(1n)).toBe('0.00000001');
    expect(satsToBtc(100_000_000n)).toBe('1');
    expect(satsToBtc(0n)).toBe('0');
    expect(satsToBtc(248_588n)).toBe('0.00248588');
    expect(satsToBtc(MAX_SATS)).toBe('21000000');
    expect(satsToBtc(150_000_000n)).toBe('1.5');
    expect(satsToBtc(-150_000_000n)).toBe('-1.5');
    expect(satsToBtc(12_345)).toBe('0.00012345');
  });

  it('refuses a number that is not a whole amount of satoshis', () => {
    expect(() => satsToBtc(1.5)).toThrow(ValidationError);
    expect(() => satsToBtc(2 ** 53)).toThrow(ValidationError);
  });
});
