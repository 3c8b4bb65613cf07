/**
 * The node's numbers are `0x` hex strings, kept as sent (no precision is lost on the way). These
 * turn them into what a program computes with: `bigint` always, `number` only when it is exact.
 */
import { ValidationError } from '@blockwire/core/operations';

const QUANTITY = /^0x[0-9a-fA-F]+$/;

/** A `0x` hex quantity (a balance, a block number) as a bigint. */
export function hexToBigInt(value: string): bigint {
  if (typeof value !== 'string' || !QUANTITY.test(value)) {
    throw new ValidationError([{ path: '', message: 'must be a 0x hex quantity, e.g. 0x1a' }], {
      subject: 'argument of hexToBigInt',
    });
  }
  return BigInt(value);
}

/** A `0x` hex quantity as a number; past `Number.MAX_SAFE_INTEGER` it would be rounded, so it throws. */
export function hexToNumber(value: string): number {
  const integer = hexToBigInt(value);
  if (integer > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ValidationError(
      [{ path: '', message: `is ${integer}, past Number.MAX_SAFE_INTEGER: use hexToBigInt` }],
      { subject: 'argument of hexToNumber' },
    );
  }
  return Number(integer);
}

/**
 * An integer amount in a token's smallest unit as a decimal string in whole units, every digit
 * kept: `formatUnits(1500000000000000000n, 18)` is `"1.5"`, `formatUnits(1n, 18)` is
 * `"0.000000000000000001"`. Trailing zeros of the fraction are dropped.
 */
export function formatUnits(amount: bigint | string, decimals: number): string {
  const value = typeof amount === 'bigint' ? amount : hexOrDecimal(amount);
  if (!Number.isSafeInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new ValidationError([{ path: 'decimals', message: 'must be an integer from 0 to 255' }], {
      subject: 'arguments of formatUnits',
    });
  }
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function hexOrDecimal(amount: string): bigint {
  if (typeof amount === 'string' && (QUANTITY.test(amount) || /^\d+$/.test(amount))) return BigInt(amount);
  throw new ValidationError([{ path: 'amount', message: 'must be a bigint, 0x hex or decimal string' }], {
    subject: 'arguments of formatUnits',
  });
}
