/**
 * keccak256 (Ethereum's: the original Keccak padding, not SHA3-256's) for EIP-55 address checksums
 * and ABI selectors, on @noble/hashes' Keccak-f[1600] permutation (audited, the one
 * `@blockwire/streams` hashes with). Only the sponge around it is here: noble's whole `keccak_256`
 * (its hasher classes and checks) weighs 5 KB more in the n8n node's bundle, which has a size budget;
 * the test holds this to `keccak_256` on every length around the block size.
 */
import { keccakP } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** Bytes absorbed per permutation: 1600 bits of state less twice the 256-bit output. */
const RATE = 136;

/** keccak256 of `input` (a string is hashed as UTF-8), as 32 bytes. */
export function keccak256(input: Uint8Array | string): Uint8Array {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const padded = new Uint8Array((Math.floor(bytes.length / RATE) + 1) * RATE);
  padded.set(bytes);
  padded[bytes.length]! ^= 0x01;
  padded[padded.length - 1]! ^= 0x80;
  // noble's state: 25 lanes of 64 bits as 50 little-endian 32-bit words.
  const state = new Uint32Array(50);
  const words = new DataView(padded.buffer);
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let i = 0; i < RATE / 4; i++) state[i]! ^= words.getUint32(offset + i * 4, true);
    keccakP(state);
  }
  const out = new Uint8Array(32);
  const outWords = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outWords.setUint32(i * 4, state[i]!, true);
  return out;
}

/** keccak256 as `0x` and 64 lowercase hex digits. */
export function keccak256Hex(input: Uint8Array | string): `0x${string}` {
  return `0x${bytesToHex(keccak256(input))}`;
}
