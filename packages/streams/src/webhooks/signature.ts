import { hasLoneSurrogate } from '@blockwire/core/operations';
import { createKeccak, type IHasher } from 'hash-wasm';
import { parsedBodyOf } from './body.js';
import { SignatureError } from './errors.js';

export interface VerifySignatureInput {
  /** The delivery body: the parsed object, or the raw request text/bytes (parsed, then re-serialized). */
  body: unknown;
  /** The `x-signature` header value: `0x` + 64 hex digits (any case). */
  signature: string | null | undefined;
  /** The project's webhook secret (`secretKey` in the project settings). */
  secret: string;
}

const SIGNATURE = /^(?:0[xX])?([0-9a-fA-F]{64})$/;

let hasher: Promise<IHasher> | undefined;

/** keccak256 over the parts, one after the other, as 32 bytes. */
async function keccak256(...parts: (string | Uint8Array)[]): Promise<Uint8Array> {
  hasher ??= createKeccak(256);
  const instance = await hasher;
  // Synchronous from here on: two deliveries checked at once never interleave their updates.
  instance.init();
  for (const part of parts) instance.update(part);
  return instance.digest('binary');
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
 * resolves `false` (never throws) for a missing, short or non-hex signature or an unparseable body.
 */
export async function verifySignature({ body, signature, secret }: VerifySignatureInput): Promise<boolean> {
  return verifyDelivery(rawOf(body), () => parsedBodyOf(body), signature, secret);
}

/**
 * The check itself, for a body known both as received (`raw`, when there is one) and parsed.
 * The service signs `JSON.stringify` of the body it sends, and it sends exactly that text: so the
 * bytes as received are hashed first, and only when they differ (a proxy that re-indented them)
 * is the parsed body serialized again. Equal hashes mean equal text (keccak256 is collision
 * resistant), so the first way never accepts what the second would refuse.
 */
/**
 * The 32 bytes an `x-signature` header carries (`0x` + 64 hex digits, any case), or `undefined`
 * when it is missing or not of that form. Cheap: a receiver calls it before reading the body.
 */
export function signatureBytesOf(header: string | null | undefined): Uint8Array | undefined {
  if (typeof header !== 'string' || header.length > 80) return undefined;
  const given = SIGNATURE.exec(header.trim());
  return given ? fromHex(given[1]!) : undefined;
}

/**
 * Whether `raw`, exactly as received, is what the service signed with `secret` (`expected` from
 * `signatureBytesOf`). Nothing is parsed: a receiver checks this before `JSON.parse`, so an
 * anonymous sender cannot make it parse anything. Text with a lone surrogate has no exact UTF-8
 * form, so it never matches.
 */
export async function verifyRawDelivery(
  raw: string | Uint8Array,
  expected: Uint8Array,
  secret: string,
): Promise<boolean> {
  if (typeof raw === 'string' && !isWellFormed(raw)) return false;
  try {
    return constantTimeEqual(await keccak256(raw, secret), expected);
  } catch {
    return false;
  }
}

export async function verifyDelivery(
  raw: string | Uint8Array | undefined,
  parsed: () => unknown,
  signature: string | null | undefined,
  secret: string,
): Promise<boolean> {
  try {
    if (typeof secret !== 'string') return false;
    const expected = signatureBytesOf(signature);
    if (!expected) return false;
    if (raw !== undefined && (await verifyRawDelivery(raw, expected, secret))) return true;
    const serialized = JSON.stringify(parsed());
    if (serialized === undefined) return false;
    return constantTimeEqual(await keccak256(serialized, secret), expected);
  } catch {
    return false;
  }
}

/**
 * Whether the body exactly as received (text or bytes) carries the service's signature. Unlike
 * `verifySignature`, nothing is parsed, ever: check this first, then `JSON.parse` what passed, so
 * an unsigned or forged delivery costs one hash and no parse. Resolves `false`, never throws.
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

/** Bytes of hex digits already checked by `SIGNATURE` (no slices, no parseInt: it runs per delivery). */
function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = (nibble(hex.charCodeAt(i * 2)) << 4) | nibble(hex.charCodeAt(i * 2 + 1));
  }
  return bytes;
}

/** 0-9, a-f, A-F: the low four bits, plus 9 for a letter. */
function nibble(code: number): number {
  return (code & 0xf) + (code > 0x39 ? 9 : 0);
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
