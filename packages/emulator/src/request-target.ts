/**
 * The request target as it was sent, split into path and query without normalising anything.
 *
 * A URL parser rewrites paths: `new URL('/a/%2e%2e/b', base)` is `/b`, a backslash is a slash, a
 * fragment is dropped. Routing on the rewritten path lets a value that fills one segment (an xpub
 * id of `..`) reach another route (delete the stream). So the emulator routes on the raw path and
 * refuses every path a parser or a proxy would rewrite.
 */
export type RequestTarget = { path: string; query: string } | { problem: string };

/** `scheme://authority` of an absolute-form target (what a client talking to a proxy sends). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
/** Control characters (C0, DEL, C1) once decoded: no id of the contract holds one. */
const CONTROL = /\p{Cc}/u;

export function parseRequestTarget(target: string): RequestTarget {
  const origin = ABSOLUTE_FORM.exec(target)?.[0] ?? '';
  const rest = target.slice(origin.length) || '/';
  if (!rest.startsWith('/')) return { problem: 'the request target must be a path starting with /' };
  const queryAt = rest.indexOf('?');
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1);
  if (rest.includes('#')) return { problem: 'a fragment (#) has no place in a request' };
  const segments = path.split('/');
  for (let index = 1; index < segments.length; index++) {
    const problem = segmentProblem(segments[index]!);
    // Segments are counted, never quoted: one of them may be the API key of the node interface.
    if (problem) return { problem: `path segment ${index} ${problem}` };
  }
  return { path, query };
}

function segmentProblem(raw: string): string | undefined {
  if (raw.includes('\\')) return 'holds a backslash, which URL parsers read as /';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return 'has bad percent-encoding (each % must start a UTF-8 byte as two hex digits)';
  }
  if (decoded === '.' || decoded === '..') return `is a dot segment (${raw}), which URL parsers resolve`;
  if (decoded.includes('/') || decoded.includes('\\')) {
    return 'holds an encoded / or \\, which proxies may decode into another path';
  }
  if (CONTROL.test(decoded)) return 'holds a control character';
  return undefined;
}
