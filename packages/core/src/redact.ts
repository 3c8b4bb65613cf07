/** The text that stands in for a secret wherever it would otherwise appear. */
export const REDACTED = '***';

/**
 * The shortest run of a secret's characters that is masked on its own. A service may echo a key
 * cut short (a 16-character prefix), or in another letter case, so matching the whole key is not
 * enough; any run of at least this many consecutive characters of the key, in any case, is
 * masked. Eight characters of a random key are about 48 bits: too many to turn up by chance in a
 * message, and too few to be worth leaving visible. A key shorter than this is masked whole.
 */
export const MIN_MASKED_RUN = 8;

/** Deeper than any error body or JSON-RPC error `data`; below it a value is cut off, never shown unmasked. */
const MAX_DEPTH = 64;
const TOO_DEEP = '[nested too deep: not shown]';
const CIRCULAR = '[circular]';

/**
 * A function that masks the given secrets in any text: every run of at least
 * `min(MIN_MASKED_RUN, secret length)` consecutive characters of a secret (or of its URL
 * encoding), ASCII letter case ignored. Used on everything the SDK reports: error messages,
 * paths, service messages, hook arguments. Linear in the text's length.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  // Runs of each length to look for, as lower-cased substrings of the secrets.
  const runs = new Map<number, Set<string>>();
  for (const form of new Set(secrets.flatMap((secret) => [secret, encodedOrNothing(secret)]))) {
    if (form.length === 0) continue;
    const length = Math.min(MIN_MASKED_RUN, form.length);
    const set = runs.get(length) ?? new Set<string>();
    const lower = lowerAscii(form);
    for (let i = 0; i + length <= lower.length; i++) set.add(lower.slice(i, i + length));
    runs.set(length, set);
  }
  return (input) => {
    const text = String(input);
    const lower = lowerAscii(text);
    let masked: Uint8Array | undefined;
    for (const [length, set] of runs) {
      for (let i = 0; i + length <= lower.length; i++) {
        if (!set.has(lower.slice(i, i + length))) continue;
        masked ??= new Uint8Array(text.length);
        masked.fill(1, i, i + length);
      }
    }
    if (!masked) return text;
    let out = '';
    for (let i = 0; i < text.length; ) {
      let end = i;
      while (end < text.length && masked[end] === masked[i]) end++;
      out += masked[i] ? REDACTED : text.slice(i, end);
      i = end;
    }
    return out;
  };
}

/** Deeply masks secrets in any JSON-like value: strings and keys inside objects and arrays included. */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
  return redactNested(value, redact, 0, new Set());
}

function redactNested(
  value: unknown,
  redact: (text: string) => string,
  depth: number,
  ancestors: Set<object>,
): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  // Depth must never be a way around masking: what lies deeper is dropped, not returned as is.
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (ancestors.has(value)) return CIRCULAR;
  ancestors.add(value);
  const copy = Array.isArray(value)
    ? value.map((item) => redactNested(item, redact, depth + 1, ancestors))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          redact(key),
          redactNested(item, redact, depth + 1, ancestors),
        ]),
      );
  ancestors.delete(value);
  return copy;
}

/** Lower-cases A–Z only, so every index in the result is the same character position as in `text`. */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** A secret as it appears in a URL; nothing for one that cannot be encoded (a lone surrogate). */
function encodedOrNothing(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return '';
  }
}
