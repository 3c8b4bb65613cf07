// Solana addresses for the e2e tests, the unit tests (test/support/solana.ts) and the benchmarks.
import { createHash } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet), as Solana writes its 32-byte addresses. */
function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** `count` distinct, valid Solana addresses, the same on every run. */
export function solanaAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    base58(createHash('sha256').update(`blockwire-e2e-${index}`).digest()),
  );
}

/** Mints the emulator prices (see its README). */
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const WRAPPED_SOL = 'So11111111111111111111111111111111111111112';

/**
 * The Solana batch of the e2e tests and the benchmarks: `count` addresses, USDC at index 10 and
 * wrapped SOL at nine tenths (index 900 of 1,000), the two mints the emulator prices.
 */
export function solanaBatchAddresses(count: number): string[] {
  const addresses = solanaAddresses(count);
  addresses[10] = USDC;
  addresses[Math.floor(count * 0.9)] = WRAPPED_SOL;
  return addresses;
}
