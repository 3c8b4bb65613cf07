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
 * `min(MIN_MASKED_RUN, secret length)` consecutive characters of a secret, ASCII letter case
 * ignored, and every run as long as that many of the secret's bytes in its encoded forms
 * (`encodedForms`: percent-encoded, base64 and base64url at any alignment, hex). Used on everything
 * the SDK and the MCP server report: error messages, paths, service messages, hook arguments,
 * tool results. Linear in the text's length.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  // Runs of each length to look for, as lower-cased substrings of the secrets' forms.
  const runs = new Map<number, Set<string>>();
  // Character codes that occur in a form of a secret: a run is looked up only once enough of them follow in a row.
  const secretChars = new Set<number>();
  const forms = new Map<string, number>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    for (const form of encodedForms(secret)) {
      if (form.text.length === 0) continue;
      // A secret shorter than the run is masked whole, in whatever form it came.
      const length = Math.min(Math.ceil(runLength(secret) * form.charsPerChar), form.text.length);
      forms.set(form.text, Math.min(forms.get(form.text) ?? length, length));
    }
  }
  // Every 4 characters in a row of a form, as a number: a position whose last 4 characters are
  // none of them ends no run, found without making a string (most positions of most texts).
  const quads = new Set<number>();
  for (const [form, length] of forms) {
    const set = runs.get(length) ?? new Set<string>();
    const lower = lowerAscii(form);
    for (let i = 0; i < lower.length; i++) secretChars.add(lower.charCodeAt(i));
    for (let i = 0; i + length <= lower.length; i++) set.add(lower.slice(i, i + length));
    for (let i = QUAD - 1; i < lower.length; i++) quads.add(quadAt(lower, i));
    runs.set(length, set);
  }
  const lengths = [...runs].sort((a, b) => a[0] - b[0]);
  const shortest = lengths[0]?.[0] ?? Number.POSITIVE_INFINITY;
  return (input) => {
    const text = String(input);
    if (text.length < shortest) return text;
    let spans: Span[][] | undefined;
    let inSecretChars = 0;
    let quad = 0;
    for (let i = 0; i < text.length; i++) {
      const code = lowerCode(text.charCodeAt(i));
      quad = ((quad << 8) | (code & 0xff)) >>> 0;
      inSecretChars = secretChars.has(code) ? inSecretChars + 1 : 0;
      if (inSecretChars < shortest) continue;
      if (inSecretChars >= QUAD && shortest >= QUAD && !quads.has(quad)) continue;
      for (let k = 0; k < lengths.length; k++) {
        const [length, grams] = lengths[k]!;
        if (inSecretChars < length) break;
        const start = i + 1 - length;
        if (!grams.has(lowerAscii(text.slice(start, i + 1)))) continue;
        spans ??= lengths.map(() => []);
        const own = spans[k]!;
        const last = own[own.length - 1];
        if (last && start <= last[1]) last[1] = i + 1;
        else own.push([start, i + 1]);
      }
    }
    return spans === undefined ? text : maskSpans(text, spans.flat());
  };
}

function lowerCode(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** The characters a quick check looks at before a run is looked up. */
const QUAD = 4;

/** The last 4 characters up to `end`, one byte each, as the scan in `createRedactor` keeps them. */
function quadAt(lower: string, end: number): number {
  let quad = 0;
  for (let i = end - QUAD + 1; i <= end; i++) quad = ((quad << 8) | (lower.charCodeAt(i) & 0xff)) >>> 0;
  return quad;
}

/** [start, end) of text to mask. */
type Span = [start: number, end: number];

function maskSpans(text: string, spans: Span[]): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let shownFrom = 0;
  for (const [start, end] of spans) {
    if (end <= shownFrom) continue;
    if (start >= shownFrom) out += `${text.slice(shownFrom, start)}${REDACTED}`;
    shownFrom = end;
  }
  return out + text.slice(shownFrom);
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

/** The run of a secret's characters masked on its own: `MIN_MASKED_RUN`, or the whole of a shorter secret. */
function runLength(secret: string): number {
  return Math.min(MIN_MASKED_RUN, secret.length);
}

/** One way a secret may be written, and how many of its characters stand for one of the secret's. */
export interface SecretForm {
  text: string;
  charsPerChar: number;
}

/**
 * Every form of a secret that is masked: the secret itself (any letter case comes from the
 * matching), its percent-encoding (of the characters URLs reserve, or of every byte), its hex (either case), and its base64 and base64url as they
 * appear inside a longer encoded text. Base64 turns 3 bytes into 4 characters, so the characters
 * a secret becomes depend on where its first byte falls in a 3-byte group: for each of the three
 * offsets, the form is the encoding of the bytes from the first group boundary on, cut at the last
 * whole group (the characters that depend on the secret's bytes only). Each is taken of the
 * secret as given, lower- and upper-cased, since a service may change the case before encoding.
 */
export function encodedForms(secret: string): SecretForm[] {
  const forms: SecretForm[] = [{ text: secret, charsPerChar: 1 }];
  const percent = percentOrNothing(secret);
  if (percent !== secret && percent !== '') forms.push({ text: percent, charsPerChar: 1 });
  for (const variant of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) {
    const bytes = new TextEncoder().encode(variant);
    const perChar = bytes.length / variant.length;
    const hex = hexOf(bytes);
    forms.push({ text: hex, charsPerChar: 2 * perChar });
    // Every byte percent-encoded, as some encoders write a URL: `%61%62…`.
    forms.push({ text: hex.replace(/(..)/g, '%$1'), charsPerChar: 3 * perChar });
    for (let skip = 0; skip < 3; skip++) {
      const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
      if (whole.length === 0) continue;
      const base64 = base64Of(whole);
      forms.push({ text: base64, charsPerChar: (4 / 3) * perChar });
      const url = base64.replace(/\+/g, '-').replace(/\//g, '_');
      if (url !== base64) forms.push({ text: url, charsPerChar: (4 / 3) * perChar });
    }
  }
  return forms;
}

function hexOf(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Standard base64 (every runtime the SDK supports has `btoa`; Buffer is Node's only). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A secret as it appears in a URL; nothing for one that cannot be encoded (a lone surrogate). */
function percentOrNothing(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return '';
  }
}
