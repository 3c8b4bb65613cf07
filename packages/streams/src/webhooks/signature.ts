import { hasLoneSurrogate } from '@blockwire/core/operations';
import { parsedBodyOf } from './body.js';
import { SignatureError } from './errors.js';
import { keccak256 as keccakOf } from './keccak.js';

export interface VerifySignatureInput {
  /** The delivery body: the parsed object, or the raw request text/bytes (parsed, then re-serialized). */
  body: unknown;
  /** The `x-signature` header value: `0x` + 64 hex digits (any case). */
  signature: string | null | undefined;
  /** The project's webhook secret (`secretKey` in the project settings). */
  secret: string;
}

const SIGNATURE = /^(?:0[xX])?([0-9a-fA-F]{64})$/;

const encoder = new TextEncoder();
let secretText: string | undefined;
let secretBytes = new Uint8Array();

/** The secret as UTF-8, encoded once rather than at every delivery (a receiver has one secret). */
function bytesOfSecret(secret: string): Uint8Array {
  if (secret !== secretText) {
    secretBytes = encoder.encode(secret);
    secretText = secret;
  }
  return secretBytes;
}

/**
 * This runtime could not compute keccak256: a fault of the receiver, never of the sender, so no
 * check answers `false` for it (a receiver answers 5xx, and the service delivers again).
 */
export class KeccakFailure extends Error {
  override readonly name = 'KeccakFailure';
  constructor(cause: unknown) {
    super(`keccak256 failed in this runtime: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** keccak256 over `body` + `secret`; synchronous where the runtime hashes natively or hash-wasm is loaded. */
function keccak256(body: string | Uint8Array, secret: string): Uint8Array | Promise<Uint8Array> {
  let digest: Uint8Array | Promise<Uint8Array>;
  try {
    digest = keccakOf(body, bytesOfSecret(secret));
  } catch (error) {
    throw new KeccakFailure(error);
  }
  return digest instanceof Promise
    ? digest.catch((error: unknown) => Promise.reject(new KeccakFailure(error)))
    : digest;
}

/**
 * The `x-signature` value the service sends with `body`: `0x` + keccak256 over
 * `JSON.stringify(body) + secret`, UTF-8. A raw string body is parsed first, because the service
 * signs the re-serialized JSON, not the bytes on the wire.
 */
export async function signBody(body: unknown, secret: string): Promise<string> {
  const serialized = JSON.stringify(parsedBodyOf(body));
  if (serialized === undefined) throw new TypeError('signBody: the body must be JSON-serializable');
  return `0x${toHex(await keccak256(serialized, secret))}`;
}

/**
 * Whether `signature` is the service's signature of `body` with `secret`. Compares in constant time;
 * resolves `false` for a missing, short or non-hex signature or an unparseable body. Rejects (with
 * a `KeccakFailure`) only when this runtime cannot compute keccak256: that is no wrong signature.
 */
export async function verifySignature({ body, signature, secret }: VerifySignatureInput): Promise<boolean> {
  return verifyDelivery(rawOf(body), () => parsedBodyOf(body), signature, secret);
}

/**
 * The 32 bytes an `x-signature` header carries (`0x` + 64 hex digits, any case), or `undefined`
 * when it is missing or not of that form. Cheap: a receiver calls it before reading the body.
 */
export function signatureBytesOf(header: string | null | undefined): Uint8Array | undefined {
  if (typeof header !== 'string' || header.length > 80) return undefined;
  // As the service sends it: `0x` and 64 digits, read as they are (the regex copes with the rest).
  const exact =
    header.length === 66 && header.charCodeAt(0) === 0x30 && (header.charCodeAt(1) | 0x20) === 0x78;
  if (exact) return bytesOfHex(header, 2);
  const given = SIGNATURE.exec(header.trim());
  return given ? bytesOfHex(given[1]!, 0) : undefined;
}

/**
 * Whether `raw`, exactly as received, is what the service signed with `secret` (`expected` from
 * `signatureBytesOf`). Nothing is parsed: a receiver checks this before `JSON.parse`, so an
 * anonymous sender cannot make it parse anything. Text with a lone surrogate has no exact UTF-8
 * form, so it never matches.
 */
export function verifyRawDelivery(
  raw: string | Uint8Array,
  expected: Uint8Array,
  secret: string,
): boolean | Promise<boolean> {
  if (typeof raw === 'string' && !isWellFormed(raw)) return false;
  // A KeccakFailure goes to the caller: the receiver's fault, not a mismatch.
  const digest = keccak256(raw, secret);
  // No function made for the usual, synchronous digest: this runs for every delivery.
  return digest instanceof Promise
    ? digest.then((bytes) => constantTimeEqual(bytes, expected))
    : constantTimeEqual(digest, expected);
}

/**
 * The check itself, for a body known both as received (`raw`, when there is one) and parsed.
 * The service signs `JSON.stringify` of the body it sends, and it sends exactly that text: so the
 * bytes as received are hashed first, and only when they differ (a proxy that re-indented them)
 * is the parsed body serialized again. Equal hashes mean equal text (keccak256 is collision
 * resistant), so the first way never accepts what the second would refuse.
 */
export async function verifyDelivery(
  raw: string | Uint8Array | undefined,
  parsed: () => unknown,
  signature: string | null | undefined,
  secret: string,
): Promise<boolean> {
  if (typeof secret !== 'string') return false;
  const expected = signatureBytesOf(signature);
  if (!expected) return false;
  if (raw !== undefined && (await verifyRawDelivery(raw, expected, secret))) return true;
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(parsed());
  } catch {
    return false; // not JSON (or not serializable): not what the service signed
  }
  if (serialized === undefined) return false;
  return constantTimeEqual(await keccak256(serialized, secret), expected);
}

/**
 * Whether the body exactly as received (text or bytes) carries the service's signature. Unlike
 * `verifySignature`, nothing is parsed, ever: check this first, then `JSON.parse` what passed, so
 * an unsigned or forged delivery costs one hash and no parse. Resolves `false`; rejects (with a
 * `KeccakFailure`) only when this runtime cannot compute keccak256.
 */
export async function verifyRawSignature({
  body,
  signature,
  secret,
}: {
  body: string | Uint8Array | ArrayBuffer;
  signature: string | null | undefined;
  secret: string;
}): Promise<boolean> {
  const expected = signatureBytesOf(signature);
  const raw = rawOf(body);
  if (!expected || raw === undefined || typeof secret !== 'string') return false;
  return verifyRawDelivery(raw, expected, secret);
}

/** Like `verifySignature`, but rejects with a `SignatureError` instead of resolving `false`. */
export async function assertValidSignature(input: VerifySignatureInput): Promise<void> {
  if (typeof input.signature !== 'string' || input.signature.trim() === '') {
    throw new SignatureError('The webhook carries no x-signature header');
  }
  if (!(await verifySignature(input))) {
    throw new SignatureError(
      'The x-signature header does not match the body and the webhook secret (is the secret the project secretKey?)',
    );
  }
}

/** The body as received, when it was given that way (text or bytes). */
function rawOf(body: unknown): string | Uint8Array | undefined {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/** No lone surrogate (ES2024's String#isWellFormed, native and fast; a scan where it is missing). */
function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !hasLoneSurrogate(text);
}

/** Compares in time that depends on the length only, never on where the bytes differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** The bytes of the 64 hex digits from `start`, or `undefined` at the first other character. */
function bytesOfHex(text: string, start: number): Uint8Array | undefined {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const high = nibble(text.charCodeAt(start + i * 2));
    const low = nibble(text.charCodeAt(start + i * 2 + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

/** The value of one hex digit (0-9, a-f, A-F), or -1 (`NaN` past the end is neither). */
function nibble(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
