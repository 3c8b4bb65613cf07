import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { isSolanaAddress, solanaAddress, solanaTokenPriceSchema } from './schemas.js';

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

describe('isSolanaAddress (the fast path of solanaAddress)', () => {
  const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  /** What solanaAddress checked before the fast path: the pattern, then the decoder. */
  const byDecoder = (text: string) =>
    /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(text) && base58.decode(text).length === 32;
  /** A seeded generator: a failure shows the same input on every run. */
  function random(seed: number) {
    let state = seed >>> 0;
    return (below: number) => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below);
    };
  }
  const bytes = (count: number, next: (below: number) => number, zeroFirst: number) =>
    Uint8Array.from({ length: count }, (_, i) => (i < zeroFirst ? 0 : next(256)));

  it.each([
    ['11111111111111111111111111111111', true],
    ['1'.repeat(33), false],
    ['1'.repeat(31), false],
    [`${'1'.repeat(31)}2`, true],
    [`${'1'.repeat(31)}z`, true],
    [base58.encode(new Uint8Array(32).fill(255)), true],
    // 2^256: 44 characters, one byte too many.
    [base58.encode(Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 1 : 0))), false],
    [base58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0))), true],
    [base58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0))), true],
    [base58.encode(new Uint8Array(31).fill(255)), false],
    ['So11111111111111111111111111111111111111112', true],
    ['LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDjJ1oVEEsbjk', false],
    [`So1111111111111111111111111111111111111111\u00e9`, false],
    [`So111111111111111111111111111111111111111${String.fromCharCode(0x131)}`, false],
    ['0OIl'.repeat(10), false],
  ])('%s: %s, as the decoder says', (text, expected) => {
    expect(byDecoder(text)).toBe(expected);
    expect(isSolanaAddress(text)).toBe(expected);
  });

  it('agrees with the decoder on 50,000 random inputs near the boundaries', () => {
    const next = random(20261126);
    const disagreements: string[] = [];
    for (let run = 0; run < 50_000; run++) {
      let text: string;
      switch (next(5)) {
        case 0: // 31 to 33 bytes, some leading zeros: right around 32 bytes
          text = base58.encode(bytes(31 + next(3), next, next(3) === 0 ? next(33) : 0));
          break;
        case 1: // bytes 0, 1 and 255 only: the edges of each byte count, with leading zero bytes
          text = base58.encode(
            Uint8Array.from({ length: 31 + next(3) }, (_, i) => (i < next(33) ? 0 : [0, 1, 255][next(3)]!)),
          );
          break;
        case 2: // leading '1's and random digits, any length up to 45
          text = '1'.repeat(next(45)) + Array.from({ length: next(46) }, () => ALPHABET[next(58)]).join('');
          text = text.slice(0, next(46));
          break;
        case 3: // a valid address with one character changed (perhaps to one outside base58)
          text = base58.encode(bytes(32, next, 0));
          text = `${text.slice(0, 10)}${String.fromCharCode(next(3) === 0 ? next(0x200) : ALPHABET.charCodeAt(next(58)))}${text.slice(11)}`;
          break;
        default: // 30 to 45 random digits
          text = Array.from({ length: 30 + next(16) }, () => ALPHABET[next(58)]).join('');
      }
      if (isSolanaAddress(text) !== byDecoder(text)) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
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
