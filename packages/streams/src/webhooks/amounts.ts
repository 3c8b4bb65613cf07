import { ValidationError } from '@blockwire/core/operations';

const SATS_PER_BTC = 100_000_000n;
/** More integer digits than any finite JS number has: past this a string amount is nonsense, not money. */
const MAX_INTEGER_DIGITS = 309;
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
  // Counted, never padded: a hostile '1e-999999999' must not build a gigabyte of zeros, and the
  // zeros are trimmed by index (a /0+$/ regex is quadratic on a long run of zeros before a digit).
  const exponent = match[3] === undefined ? 0 : Number(match[3]);
  if (!Number.isSafeInteger(exponent)) throw invalid(value, 'has an out-of-range exponent');
  let digits = whole + fraction;
  let point = whole.length + exponent;
  let lead = 0;
  while (lead < digits.length && digits[lead] === '0') lead++;
  let end = digits.length;
  while (end > lead && digits[end - 1] === '0') end--;
  if (lead === end) return 0n;
  point -= lead;
  digits = digits.slice(lead, end);
  if (digits.length - point > 8) {
    throw invalid(value, 'has more than 8 decimals (a satoshi is 0.00000001 BTC)');
  }
  if (point > MAX_INTEGER_DIGITS) throw invalid(value, 'is too large to be an amount of BTC');
  // point >= digits.length - 8: at most 8 fraction digits, possibly fewer than there are digits.
  const integerPart = point <= 0 ? '' : digits.slice(0, point).padEnd(point, '0');
  const fractionPart =
    point >= digits.length ? '' : '0'.repeat(Math.max(0, -point)) + digits.slice(Math.max(0, point));
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
