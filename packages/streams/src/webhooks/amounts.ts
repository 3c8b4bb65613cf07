import { ValidationError } from '@blockwire/core';

const SATS_PER_BTC = 100_000_000n;
const DECIMAL = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function invalid(value: unknown, message: string): ValidationError {
  return new ValidationError([{ path: '', message }], { subject: `BTC amount ${String(value)}` });
}

/**
 * A BTC amount as an exact number of satoshis.
 *
 * A number is read through its shortest round-trip decimal form (what `String(n)` prints), so
 * `0.1` is exactly 10 000 000 sats and `1e-8` is 1 sat. Anything with a non-zero digit after the
 * 8th decimal is rejected rather than rounded: `0.1 + 0.2` prints as `0.30000000000000004`, which
 * is not an amount of whole satoshis, so it is a `ValidationError` (round it yourself if you mean to).
 * Negative, NaN, Infinity and non-numeric strings are a `ValidationError` too.
 */
export function btcToSats(value: number | string): bigint {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(value, 'must be a finite number');
    if (value < 0) throw invalid(value, 'must not be negative');
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
    if (text.startsWith('-')) throw invalid(value, 'must not be negative');
  } else {
    throw invalid(value, 'must be a number or a decimal string');
  }

  const match = DECIMAL.exec(text);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || whole + fraction === '') throw invalid(value, 'must be a decimal number such as 0.00012');

  // Shift the decimal point by the exponent on the digit string itself, so nothing is rounded.
  const exponent = match[3] === undefined ? 0 : Number(match[3]);
  if (!Number.isSafeInteger(exponent)) throw invalid(value, 'has an out-of-range exponent');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let integerPart: string;
  let fractionPart: string;
  if (point <= 0) {
    integerPart = '';
    fractionPart = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    integerPart = digits + '0'.repeat(point - digits.length);
    fractionPart = '';
  } else {
    integerPart = digits.slice(0, point);
    fractionPart = digits.slice(point);
  }

  fractionPart = fractionPart.replace(/0+$/, '');
  if (fractionPart.length > 8) {
    throw invalid(value, 'has more than 8 decimals (a satoshi is 0.00000001 BTC)');
  }
  return BigInt(integerPart || '0') * SATS_PER_BTC + BigInt(fractionPart.padEnd(8, '0'));
}

/** Satoshis as a BTC decimal string without trailing zeros: `1n` → `'0.00000001'`, `100000000n` → `'1'`. */
export function satsToBtc(sats: bigint | number): string {
  let value: bigint;
  if (typeof sats === 'bigint') value = sats;
  else if (Number.isSafeInteger(sats)) value = BigInt(sats);
  else throw invalid(sats, 'must be a whole number of satoshis (a bigint or a safe integer)');

  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const whole = magnitude / SATS_PER_BTC;
  const fraction = (magnitude % SATS_PER_BTC).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
