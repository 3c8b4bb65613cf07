import { btcToSats } from '@blockwire/streams';

/** Exact BTC amounts: satoshis inside, decimal BTC numbers on the wire. */
const SATS_PER_BTC = 100_000_000n;
export const MAX_SATS = 21_000_000n * SATS_PER_BTC;

/** Parses a BTC amount given as a number or decimal string (exponents too), exact to 8 decimals. */
export function parseBtc(value: number | string): bigint {
  let sats: bigint;
  try {
    // The SDK's own conversion, so the control API takes every amount a receiver's btcToSats reads.
    sats = btcToSats(typeof value === 'string' ? value.trim() : value);
  } catch {
    throw new RangeError('must be a positive BTC amount with at most 8 decimals');
  }
  if (sats <= 0n || sats > MAX_SATS) throw new RangeError('must be more than 0 and at most 21000000 BTC');
  return sats;
}

/**
 * A satoshi count as a JSON number of BTC. Division of an exact integer by 1e8 is correctly rounded,
 * so the number is the double nearest to the decimal and JSON prints that decimal.
 */
export function satsToBtcNumber(sats: bigint): number {
  return Number(sats) / 1e8;
}
