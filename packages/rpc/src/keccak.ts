/**
 * keccak256 (Ethereum's: the original Keccak padding, not SHA3-256's) of a few bytes, in plain
 * JavaScript and synchronous: for EIP-55 address checksums and ABI selectors, whose inputs are a
 * few dozen bytes, so a WebAssembly or native hash would cost more to load than it saves. The round
 * constants and rotation offsets are computed from their definitions (FIPS 202, 3.2) instead of
 * copied as tables.
 */
const MASK = (1n << 64n) - 1n;

function roundConstants(): bigint[] {
  let lfsr = 1;
  const bit = (): number => {
    const out = lfsr & 1;
    lfsr = lfsr & 0x80 ? ((lfsr << 1) ^ 0x71) & 0xff : (lfsr << 1) & 0xff;
    return out;
  };
  const constants: bigint[] = [];
  for (let round = 0; round < 24; round++) {
    let constant = 0n;
    for (let j = 0; j < 7; j++) if (bit()) constant |= 1n << BigInt((1 << j) - 1);
    constants.push(constant);
  }
  return constants;
}

function rotations(): number[] {
  const offsets = new Array<number>(25).fill(0);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    offsets[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return offsets;
}

const ROUND_CONSTANTS = roundConstants();
const ROTATIONS = rotations();

function rotate(lane: bigint, by: number): bigint {
  if (by === 0) return lane;
  const n = BigInt(by);
  return ((lane << n) | (lane >> (64n - n))) & MASK;
}

function permute(state: bigint[]): void {
  const b = new Array<bigint>(25);
  const c = new Array<bigint>(5);
  for (const constant of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++)
      c[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!;
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotate(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) state[x + y]! ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotate(state[x + 5 * y]!, ROTATIONS[x + 5 * y]!);
    }
    for (let i = 0; i < 25; i++) {
      const x = i % 5;
      const row = i - x;
      state[i] = b[i]! ^ (~b[row + ((x + 1) % 5)]! & MASK & b[row + ((x + 2) % 5)]!);
    }
    state[0]! ^= constant;
  }
}

const RATE = 136;

/** keccak256 of `input` (a string is hashed as UTF-8), as 32 bytes. */
export function keccak256(input: Uint8Array | string): Uint8Array {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const blocks = Math.floor(bytes.length / RATE) + 1;
  const padded = new Uint8Array(blocks * RATE);
  padded.set(bytes);
  padded[bytes.length]! ^= 0x01;
  padded[padded.length - 1]! ^= 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let lane = 0; lane < RATE / 8; lane++) {
      let value = 0n;
      for (let k = 7; k >= 0; k--) value = (value << 8n) | BigInt(padded[offset + lane * 8 + k]!);
      state[lane]! ^= value;
    }
    permute(state);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3]! >> BigInt(8 * (i & 7))) & 0xffn);
  return out;
}

/** keccak256 as `0x` and 64 lowercase hex digits. */
export function keccak256Hex(input: Uint8Array | string): `0x${string}` {
  let hex = '0x';
  for (const byte of keccak256(input)) hex += byte.toString(16).padStart(2, '0');
  return hex as `0x${string}`;
}
