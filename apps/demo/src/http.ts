/** Small HTTP helpers of the demo server: JSON in and out, and the page's static files. */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { DemoError } from './problems.js';

/** Request bodies from the page are small; anything larger is refused before it is read whole. */
export const MAX_REQUEST_BYTES = 256 * 1024;

/** The page loads nothing from elsewhere: no CDN, no fonts, no images from the service. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  redact: (text: string) => string,
) {
  // The routes only send the views they build; masking here as well makes sure that whatever
  // a service or an error message might echo, no secret reaches the browser.
  const text = redact(JSON.stringify(body));
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new DemoError(415, 'Send the request body as JSON (content-type: application/json).');
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_REQUEST_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) {
      req.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DemoError(400, 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DemoError(400, 'The request body must be a JSON object.');
  }
  return body;
}

const tooLarge = () =>
  new DemoError(413, `The request is too large: at most ${MAX_REQUEST_BYTES / 1024} KiB are accepted.`);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serves a file of `root` for a URL path, or answers 404. Only the file types above are served,
 * and only from inside `root`: `..`, encoded or not, never leaves it.
 */
export async function serveStatic(root: string, pathname: string, res: ServerResponse, head: boolean) {
  const file = resolveStatic(root, pathname);
  const type = file && CONTENT_TYPES[extname(file)];
  const info = file && type ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !type || !info?.isFile()) {
    res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found');
    return;
  }
  const body = await readFile(file);
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-length': body.length,
    'cache-control': 'no-cache',
  });
  res.end(head ? undefined : body);
}

/** The file a URL path names inside `root`, or undefined when it would leave it or is malformed. */
export function resolveStatic(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  if (decoded.split('/').some((segment) => segment === '..' || segment.startsWith('.'))) return undefined;
  const relative = decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const base = resolve(root);
  const file = resolve(base, `.${relative}`);
  return file.startsWith(base + sep) ? file : undefined;
}
