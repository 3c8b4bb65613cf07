/**
 * The rule for a value that fills one segment of a request path (`/bitcoin/{id}/xpub/{xpubId}`).
 *
 * Encoding the value (encodeURIComponent) is not enough: `.` and `..` survive it and every URL
 * parser resolves them (`…/xpub/..` is the delete-stream route), and a proxy or framework that
 * decodes the path once more turns a literal `%2e%2e` or `..%2f` into the same. So a segment
 * must be unable to mean anything but itself, before any request is sent.
 */
import { nonEmptyString } from './schemas.js';

// Each pattern looks at one or two characters at a time: linear on any input.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A percent escape (`%2e`), or IIS's `%u002e`: a server that decodes twice would read the character. */
const PERCENT_ESCAPE = /%(?:[0-9a-f]{2}|u[0-9a-f]{4})/i;
/** Characters that are the same in every form and mean nothing to a URL (RFC 3986 unreserved). */
const UNRESERVED = /^[\w\-.~]+$/;
const DOT_SEGMENT_MESSAGE = 'must not be "." or ".." (a URL resolves it to another path)';
/** Separators: `/` and `?`/`#` end the segment; URL parsers treat `\` as `/`. */
const SEPARATOR = /[/\\?#]/;

/** ES2024's String#isWellFormed (no lone surrogate): native and fast where the runtime has it. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Whether `text` holds half of a UTF-16 surrogate pair: it cannot be encoded (URIError) or sent as is. */
export function hasLoneSurrogate(text: string): boolean {
  return isWellFormed ? !isWellFormed.call(text) : LONE_SURROGATE.test(text);
}

/**
 * Whether `value` is letters, digits and `-_.~` only, other than `.` and `..` (an address, an id, a
 * UUID): safe as a path segment, and what encodeURIComponent would make of it is itself.
 */
export function isPlainSegment(value: string): boolean {
  return UNRESERVED.test(value) && value !== '.' && value !== '..';
}

/**
 * What is wrong with `value` as one path segment, or undefined when it is safe. The same
 * characters written in compatibility forms (`．．`, `／`) count too: some servers normalise them.
 */
export function pathSegmentIssue(value: string): string | undefined {
  // Letters, digits and `-_.~` only (an address, an id, a UUID): nothing below can apply but dots.
  if (UNRESERVED.test(value)) return value === '.' || value === '..' ? DOT_SEGMENT_MESSAGE : undefined;
  if (hasLoneSurrogate(value)) return 'must not contain a lone surrogate (half of a UTF-16 pair)';
  if (value.trim() === '') return 'must not be empty (it fills a path segment)';
  if (CONTROL.test(value)) return 'must not contain control characters';
  if (PERCENT_ESCAPE.test(value)) {
    return 'must not contain percent-encoded characters such as "%2e"; pass the value itself, the SDK encodes it';
  }
  for (const form of new Set([value, value.normalize('NFKC')])) {
    if (SEPARATOR.test(form)) return 'must not contain /, \\, ? or # (it fills one path segment)';
    // `..;x` is `..` to servers that strip path parameters (Tomcat's `;jsessionid`).
    const segment = form.split(';', 1)[0]!.trim();
    if (segment === '.' || segment === '..') return DOT_SEGMENT_MESSAGE;
  }
  return undefined;
}

/** A non-empty string that is safe as one path segment (see {@link pathSegmentIssue}). */
export const pathSegment = nonEmptyString.check((ctx) => {
  const issue = pathSegmentIssue(ctx.value);
  if (issue) ctx.issues.push({ code: 'custom', message: issue, input: ctx.value });
});
