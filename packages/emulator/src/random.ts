/** A small seeded PRNG (mulberry32): the same seed gives the same fixtures and faults on every run. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  bytes(length: number): Uint8Array;
}

export function createRandom(seed: number, label = ''): Random {
  let state = mixSeed(seed, label);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    between: (min, max) => min + next() * (max - min),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (probability) => next() < probability,
    bytes: (length) => Uint8Array.from({ length }, () => Math.floor(next() * 256)),
  };
}

/** FNV-1a over the label, mixed with the seed: independent streams per fixture, stable when others change. */
function mixSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return Math.imul(hash ^ (Math.floor(seed / 4294967296) >>> 0), 0x9e3779b1) >>> 0;
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A deterministic, valid-looking 0x address (lowercase) for a label. */
export function fakeEvmAddress(seed: number, label: string): string {
  return `0x${hex(createRandom(seed, `address:${label}`).bytes(20))}`;
}
