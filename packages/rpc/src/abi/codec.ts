/**
 * The Solidity ABI encoding of values (https://docs.soliditylang.org/en/latest/abi-spec.html), for
 * the parameters abitype parses out of a human-readable fragment: uint<M>, int<M>, address, bool,
 * bytes<M>, bytes, string, T[], T[k] and tuples. Decoded numbers are bigints, addresses EIP-55
 * checksummed, bytes 0x hex; a tuple whose components all have names is an object.
 */
import type { AbiParameter } from 'abitype';
import { toChecksumAddress } from '../inputs.js';

type Param = AbiParameter & { components?: readonly Param[] };

/** A value that does not fit its ABI type: `path` names it (e.g. `args.1`), `message` says why. */
export class AbiCodingError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

const WORD = 64; // hex digits in 32 bytes

function arrayOf(type: string): { inner: string; length: number | undefined } | undefined {
  const match = /^(.*)\[(\d*)\]$/.exec(type);
  if (!match) return undefined;
  return { inner: match[1]!, length: match[2] === '' ? undefined : Number(match[2]) };
}

function isDynamic(param: Param): boolean {
  const array = arrayOf(param.type);
  if (array) return array.length === undefined || isDynamic({ ...param, type: array.inner });
  if (param.type === 'bytes' || param.type === 'string') return true;
  if (param.type === 'tuple') return (param.components ?? []).some(isDynamic);
  return false;
}

/** How many 32-byte words a static parameter takes in the head. */
function staticWords(param: Param): number {
  const array = arrayOf(param.type);
  if (array) return array.length! * staticWords({ ...param, type: array.inner });
  if (param.type === 'tuple') return (param.components ?? []).reduce((sum, c) => sum + staticWords(c), 0);
  return 1;
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

const word = (value: bigint) => value.toString(16).padStart(WORD, '0');
const padRight = (hex: string) => hex.padEnd(Math.ceil(hex.length / WORD) * WORD, '0');

function integerOf(value: unknown, path: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value);
  throw new AbiCodingError(
    path,
    'must be an integer: a bigint, a safe integer or a decimal or 0x hex string',
  );
}

function hexOf(value: unknown, path: string): string {
  if (typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)) return value.slice(2).toLowerCase();
  if (value instanceof Uint8Array) return toHex(value);
  throw new AbiCodingError(path, 'must be bytes: 0x and an even number of hex digits, or a Uint8Array');
}

function encodeStatic(param: Param, value: unknown, path: string): string {
  const { type } = param;
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer) {
    const bits = BigInt(integer[2] || 256);
    const n = integerOf(value, path);
    const [min, max] = integer[1] ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
    if (n < min || n > max) throw new AbiCodingError(path, `must fit ${type} (${min} to ${max}), got ${n}`);
    return word(n < 0n ? 2n ** 256n + n : n);
  }
  if (type === 'address') {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
      throw new AbiCodingError(path, 'must be an address: 0x and 40 hex digits');
    }
    const digits = value.slice(2);
    const mixed = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
    if (mixed && toChecksumAddress(value) !== value) {
      throw new AbiCodingError(
        path,
        `has a wrong EIP-55 checksum; did you mean ${toChecksumAddress(value)}?`,
      );
    }
    return digits.toLowerCase().padStart(WORD, '0');
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new AbiCodingError(path, 'must be true or false');
    return word(value ? 1n : 0n);
  }
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed) {
    const hex = hexOf(value, path);
    if (hex.length !== Number(fixed[1]) * 2) throw new AbiCodingError(path, `must be ${fixed[1]} bytes`);
    return hex.padEnd(WORD, '0');
  }
  throw new AbiCodingError(path, `has the type ${type}, which this ABI codec does not encode`);
}

function encodeOne(param: Param, value: unknown, path: string): string {
  const array = arrayOf(param.type);
  if (array) {
    if (!Array.isArray(value)) throw new AbiCodingError(path, `must be an array (${param.type})`);
    if (array.length !== undefined && value.length !== array.length) {
      throw new AbiCodingError(path, `must have ${array.length} items, got ${value.length}`);
    }
    const inner = { ...param, type: array.inner };
    const body = encodeTuple(
      value.map(() => inner),
      value,
      path,
    );
    return array.length === undefined ? word(BigInt(value.length)) + body : body;
  }
  if (param.type === 'tuple') {
    const components = param.components ?? [];
    const values = Array.isArray(value)
      ? value
      : typeof value === 'object' && value !== null
        ? components.map((c) => (value as Record<string, unknown>)[c.name ?? ''])
        : undefined;
    if (!values || values.length !== components.length) {
      throw new AbiCodingError(
        path,
        `must be a tuple of ${components.length} values (an array or an object)`,
      );
    }
    return encodeTuple(components, values, path);
  }
  if (param.type === 'string') {
    if (typeof value !== 'string') throw new AbiCodingError(path, 'must be a string');
    const hex = toHex(new TextEncoder().encode(value));
    return word(BigInt(hex.length / 2)) + padRight(hex);
  }
  if (param.type === 'bytes') {
    const hex = hexOf(value, path);
    return word(BigInt(hex.length / 2)) + padRight(hex);
  }
  return encodeStatic(param, value, path);
}

function encodeTuple(params: readonly Param[], values: readonly unknown[], path: string): string {
  const heads: string[] = [];
  const tails: string[] = [];
  let headSize = params.reduce((sum, p) => sum + (isDynamic(p) ? 1 : staticWords(p)), 0) * 32;
  params.forEach((param, i) => {
    const encoded = encodeOne(param, values[i], `${path}.${i}`);
    if (isDynamic(param)) {
      heads.push(word(BigInt(headSize)));
      tails.push(encoded);
      headSize += encoded.length / 2;
    } else {
      heads.push(encoded);
    }
  });
  return heads.join('') + tails.join('');
}

/** The ABI encoding of `values` as `params` (hex, no 0x); an `AbiCodingError` names the value that does not fit. */
export function encodeParameters(
  params: readonly Param[],
  values: readonly unknown[],
  path = 'args',
): string {
  if (values.length !== params.length) {
    throw new AbiCodingError(path, `must have ${params.length} value(s), got ${values.length}`);
  }
  return encodeTuple(params, values, path);
}

class Reader {
  constructor(
    private readonly hex: string,
    private readonly base = 0,
  ) {}
  word(index: number): string {
    const start = (this.base + index * 32) * 2;
    const slice = this.hex.slice(start, start + WORD);
    if (slice.length < WORD) throw new AbiCodingError('data', 'is shorter than its types need');
    return slice;
  }
  at(offset: number): Reader {
    if (offset * 2 > this.hex.length) throw new AbiCodingError('data', 'has an offset past its end');
    return new Reader(this.hex, this.base + offset);
  }
  bytes(offset: number, length: number): string {
    const start = (this.base + offset) * 2;
    const slice = this.hex.slice(start, start + length * 2);
    if (slice.length < length * 2) throw new AbiCodingError('data', 'is shorter than its length says');
    return slice;
  }
}

const safeNumber = (hex: string) => {
  const n = BigInt(`0x${hex}`);
  if (n > 2n ** 32n) throw new AbiCodingError('data', 'has an offset or length too large to be real');
  return Number(n);
};

/** Decodes a static value from its 32-byte word (also what an indexed event topic holds). */
export function decodeWord(param: Param, hex: string): unknown {
  const { type } = param;
  const integer = /^(u?)int(\d*)$/.exec(type);
  const n = BigInt(`0x${hex}`);
  if (integer) {
    const bits = BigInt(integer[2] || 256);
    if (integer[1]) return n;
    return n >= 2n ** (bits - 1n) ? n - 2n ** 256n : n;
  }
  if (type === 'address') return toChecksumAddress(`0x${hex.slice(24)}`);
  if (type === 'bool') return n !== 0n;
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed) return `0x${hex.slice(0, Number(fixed[1]) * 2)}`;
  throw new AbiCodingError('data', `has the type ${type}, which this ABI codec does not decode`);
}

function decodeOne(param: Param, reader: Reader, index: number): unknown {
  const dynamic = isDynamic(param);
  const at = dynamic ? reader.at(safeNumber(reader.word(index))) : reader.at(index * 32);
  const array = arrayOf(param.type);
  if (array) {
    const length = array.length ?? safeNumber(at.word(0));
    const body = array.length === undefined ? at.at(32) : at;
    const inner = { ...param, type: array.inner };
    return decodeTuple(
      Array.from({ length }, () => inner),
      body,
    );
  }
  if (param.type === 'tuple') {
    const components = param.components ?? [];
    const values = decodeTuple(components, at);
    const named = components.length > 0 && components.every((c) => c.name);
    return named ? Object.fromEntries(components.map((c, i) => [c.name, values[i]])) : values;
  }
  if (param.type === 'string' || param.type === 'bytes') {
    const hex = at.bytes(32, safeNumber(at.word(0)));
    return param.type === 'string' ? new TextDecoder().decode(fromHex(hex)) : `0x${hex}`;
  }
  return decodeWord(param, at.word(0));
}

function decodeTuple(params: readonly Param[], reader: Reader): unknown[] {
  const values: unknown[] = [];
  let slot = 0;
  for (const param of params) {
    values.push(decodeOne(param, reader, slot));
    slot += isDynamic(param) ? 1 : staticWords(param);
  }
  return values;
}

/** Decodes ABI-encoded `data` (0x hex) as `params`; an `AbiCodingError` says where it does not fit. */
export function decodeParameters(params: readonly Param[], data: string): unknown[] {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new AbiCodingError('data', 'must be 0x hex of whole bytes');
  return decodeTuple(params, new Reader(data.slice(2).toLowerCase()));
}
