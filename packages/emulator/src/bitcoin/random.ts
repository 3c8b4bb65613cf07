import { createHash } from 'node:crypto';

/**
 * A deterministic byte source: SHA-256 over (seed, counter). The same seed and the same sequence
 * of calls give the same bytes on every machine, which is what makes the simulator reproducible.
 */
export class SeededRandom {
  private counter = 0;

  constructor(private readonly seed: number) {}

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const block = createHash('sha256')
        .update(`${this.seed}:${this.counter++}`)
        .digest();
      const take = Math.min(block.length, length - filled);
      out.set(block.subarray(0, take), filled);
      filled += take;
    }
    return out;
  }

  /** A float in [0, 1). */
  next(): number {
    const b = this.bytes(6);
    let value = 0;
    for (const byte of b) value = value * 256 + byte;
    return value / 2 ** 48;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
}

export function sha256d(data: Uint8Array | string): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** Bitcoin shows hashes byte-reversed. */
export function displayHash(hash: Uint8Array): string {
  return Buffer.from(hash).reverse().toString('hex');
}
