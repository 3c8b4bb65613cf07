/**
 * Request bodies: read with a size cap, decoded as strict UTF-8 and parsed as JSON whose strings
 * are all well-formed. A lenient decoder would store U+FFFD where the client sent other bytes (a
 * webhook secret that then signs nothing the client can reproduce); better to refuse.
 */
import type { IncomingMessage } from 'node:http';

export type BodyText = { ok: true; text: string } | { ok: false; status: 400 | 413; message: string };
export type BodyJson = { ok: true; value: unknown } | { ok: false; message: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** A UTF-16 surrogate that is not half of a pair: JSON can escape one, UTF-8 cannot encode it. */
const LONE_SURROGATE = /\p{Cs}/u;

export function readBodyText(req: IncomingMessage, maxBytes: number): Promise<BodyText> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep reading (and dropping) the rest, so the client gets the answer instead of a reset.
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBytes) {
        return resolve({ ok: false, status: 413, message: `Request body larger than ${maxBytes} bytes` });
      }
      try {
        resolve({ ok: true, text: strictUtf8.decode(Buffer.concat(chunks)) });
      } catch {
        resolve({ ok: false, status: 400, message: 'Invalid request: the body is not valid UTF-8' });
      }
    });
    req.on('error', reject);
  });
}

/** The body as JSON; `undefined` for an empty one. */
export function parseJsonBody(text: string): BodyJson {
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'Invalid request: the body is not valid JSON' };
  }
  if (hasLoneSurrogate(value)) {
    return {
      ok: false,
      message: 'Invalid request: the body holds a lone surrogate (a \\uD800-\\uDFFF escape without its pair)',
    };
  }
  return { ok: true, value };
}

/** Walks keys and strings without recursion: a deeply nested body must not overflow the stack. */
function hasLoneSurrogate(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
