import { timingSafeEqual } from 'node:crypto';
import { keccak } from 'hash-wasm';
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

/**
 * The `x-signature` value the service sends with `body`: `0x` + keccak256 over
 * `JSON.stringify(body) + secret`, UTF-8. A raw string body is parsed first, because the service
 * signs the re-serialized JSON, not the bytes on the wire.
 */
export async function signBody(body: unknown, secret: string): Promise<string> {
  const serialized = JSON.stringify(parsedBodyOf(body));
  if (serialized === undefined) throw new TypeError('signBody: the body must be JSON-serializable');
  return `0x${await keccak(serialized + secret, 256)}`;
}

/**
 * Whether `signature` is the service's signature of `body` with `secret`. Compares in constant time;
 * resolves `false` (never throws) for a missing, short or non-hex signature or an unparseable body.
 */
export async function verifySignature({ body, signature, secret }: VerifySignatureInput): Promise<boolean> {
  try {
    if (typeof signature !== 'string' || typeof secret !== 'string') return false;
    const given = SIGNATURE.exec(signature.trim());
    if (!given) return false;
    const expected = (await signBody(body, secret)).slice(2);
    return timingSafeEqual(Buffer.from(given[1]!.toLowerCase(), 'hex'), Buffer.from(expected, 'hex'));
  } catch {
    return false;
  }
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
