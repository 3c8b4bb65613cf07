/** Exact BTC amounts: satoshis inside, decimal BTC numbers on the wire. */
const SATS_PER_BTC = 100_000_000n;
export const MAX_SATS = 21_000_000n * SATS_PER_BTC;

/** Parses a BTC amount given as a number or decimal string, exact to 8 decimals. */
export function parseBtc(value: number | string): bigint {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) throw new RangeError('must be a positive BTC amount with at most 8 decimals');
  const sats = BigInt(match[1]!) * SATS_PER_BTC + BigInt((match[2] ?? '').padEnd(8, '0'));
  if (sats <= 0n || sats > MAX_SATS) throw new RangeError('must be more than 0 and at most 21000000 BTC');
  return sats;
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) return 'NaN';
  // toFixed(8) rounds; the round trip rejects amounts with more than 8 decimals.
  const fixed = value.toFixed(8);
  if (Number(fixed) !== value) return 'more-than-8-decimals';
  return fixed.replace(/\.?0+$/, '');
}

/**
 * A satoshi count as a JSON number of BTC. Division of an exact integer by 1e8 is correctly rounded,
 * so the number is the double nearest to the decimal and JSON prints that decimal.
 */
export function satsToBtcNumber(sats: bigint): number {
  return Number(sats) / 1e8;
}
