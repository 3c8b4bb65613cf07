import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { solanaAddress, solanaTokenPriceSchema } from './schemas.js';

const messageOf = (value: unknown) => solanaAddress.safeParse(value).error?.issues.map((i) => i.message);

describe('solanaAddress', () => {
  it.each([
    ['So11111111111111111111111111111111111111112', 'wrapped SOL'],
    ['11111111111111111111111111111111', 'the system program (32 zero bytes)'],
    ['LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo', 'the Meteora DLMM program'],
    [base58.encode(new Uint8Array(32).fill(255)), 'the largest 32-byte value'],
  ])('accepts %s (%s)', (address) => {
    expect(solanaAddress.parse(address)).toBe(address);
  });

  it.each([
    // The emulator served this as Meteora DLMM: it has the right alphabet and length, but 33 bytes.
    ['LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDjJ1oVEEsbjk', 33],
    [base58.encode(new Uint8Array(31).fill(7)), 31],
    [`So${'1'.repeat(42)}`, 33],
  ])('refuses %s, which decodes to %i bytes', (address, bytes) => {
    expect(base58.decode(address)).toHaveLength(bytes);
    expect(messageOf(address)).toEqual([
      `must be a Solana address: base58 of 32 bytes (this one decodes to ${bytes})`,
    ]);
  });

  it.each([
    ['', 'empty'],
    ['0OIl'.repeat(10), 'characters outside base58'],
    ['1'.repeat(31), 'too short'],
    ['1'.repeat(45), 'too long'],
  ])('refuses %j (%s) with one message', (address) => {
    expect(messageOf(address)).toEqual(['must be a base58 address of 32 to 44 characters']);
  });

  it('answers at once for a 40,000-character string', () => {
    const started = performance.now();
    expect(messageOf('1'.repeat(40_000) + '0')).toHaveLength(1);
    expect(messageOf('z'.repeat(40_000))).toHaveLength(1);
    // Linear time takes a few ms; backtracking over 40,000 characters takes seconds. The bound leaves
    // room for a busy machine without letting a quadratic pattern through.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses what is not a string', () => {
    expect(messageOf(42)).toEqual(['must be a string']);
  });
});

describe('solanaTokenPriceSchema', () => {
  it("accepts the service's nativePrice and keeps it typed", () => {
    const nativePrice = { value: '111', decimals: 9, name: 'Wrapped SOL', symbol: 'SOL' };
    const parsed = solanaTokenPriceSchema.parse({ tokenAddress: 'x', nativePrice });
    expect(parsed.nativePrice).toEqual(nativePrice);
  });

  it('accepts a price without nativePrice, or with null', () => {
    expect(solanaTokenPriceSchema.parse({ usdPrice: 1 }).nativePrice).toBeUndefined();
    expect(solanaTokenPriceSchema.parse({ nativePrice: null }).nativePrice).toBeNull();
  });

  it('refuses a nativePrice whose fields have the wrong type', () => {
    const result = solanaTokenPriceSchema.safeParse({ nativePrice: { value: 111, decimals: '9' } });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'nativePrice.value',
      'nativePrice.decimals',
    ]);
  });
});
