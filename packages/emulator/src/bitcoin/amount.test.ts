import { describe, expect, it } from 'vitest';
import { parseBtc, satsToBtcNumber } from './amount.js';

describe('BTC amounts', () => {
  it('parses numbers and strings exactly to the satoshi', () => {
    expect(parseBtc(0.1)).toBe(10_000_000n);
    expect(parseBtc('0.00000001')).toBe(1n);
    expect(parseBtc(1e-8)).toBe(1n);
    expect(parseBtc('21000000')).toBe(2_100_000_000_000_000n);
    expect(parseBtc(0.12345678)).toBe(12_345_678n);
    // Exponent notation as a string, as JSON.stringify prints small numbers and btcToSats reads them.
    expect(parseBtc('1e-8')).toBe(1n);
    expect(parseBtc('5E-7')).toBe(50n);
    expect(parseBtc(' 0.5 ')).toBe(50_000_000n);
  });

  it('refuses more than 8 decimals, zero, negatives and non-numbers', () => {
    for (const bad of [0.123456789, '1.000000001', 0, '-1', Number.NaN, 'abc', 21_000_001]) {
      expect(() => parseBtc(bad)).toThrow(RangeError);
    }
  });

  it('prints satoshis as the decimal BTC number', () => {
    expect(JSON.stringify(satsToBtcNumber(12_345_678n))).toBe('0.12345678');
    expect(JSON.stringify(satsToBtcNumber(30_000_000n))).toBe('0.3');
    expect(satsToBtcNumber(1n)).toBe(1e-8);
  });
});
