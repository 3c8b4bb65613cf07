/**
 * Streamable HTTP, stateless: each POST gets a fresh server and transport, and carries one
 * JSON-RPC message (the MCP revision the SDK implements has no batches), so one POST makes at
 * most one service call. The MCP specification asks a local server to check `Origin` (DNS
 * rebinding: a web page in the user's browser posting to localhost) and to bind to localhost; the
 * Host header is checked as well, since a rebound name arrives with a foreign Host.
 *
 * Team mode: bound beyond loopback (`host`), the server requires a bearer token
 * (`BLOCKWIRE_MCP_TOKEN`) on every request and answers 401 with `WWW-Authenticate: Bearer`
 * without one; it refuses to start beyond loopback without a token. TLS is a proxy's job (README).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedactor } from '@blockwire/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { checkFrame, type FrameError, frameError } from './frames.js';
import { type BlockwireMcpOptions, createBlockwireMcpServer, redactingTransport } from './server.js';

export interface HttpServerOptions extends BlockwireMcpOptions {
  /** 0 picks a free port. */
  port: number;
  /** The address to listen on; default 127.0.0.1. Beyond loopback, `token` is required. */
  host?: string;
  /** The bearer token every request must carry; at least `MIN_TOKEN_LENGTH` characters. */
  token?: string;
  /** Host names (with or without a port) clients may use besides the local ones, e.g. a proxy's. */
  allowedHosts?: readonly string[];
  /** Requests answered at once, over all connections; more get 503. Default 32. */
  maxConcurrent?: number;
  /** Where failures are reported (already redacted); default: nowhere. */
  log?: (line: string) => void;
}

export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3920/mcp`. */
  url: string;
  close(): Promise<void>;
}

export const MCP_PATH = '/mcp';
export const DEFAULT_HOST = '127.0.0.1';
export const MIN_TOKEN_LENGTH = 32;
/** The largest request body read, as the SDK's own limit. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.replace(/^::ffff:/, '');
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  if (!octets) return false;
  return octets.slice(1).every((octet) => Number(octet) <= 255) && octets[1] === '127';
}

/** Why the server must not listen on `host` with this token, or undefined when it may. */
export function bindRefusal(host: string, token: string | undefined): string | undefined {
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    return `BLOCKWIRE_MCP_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters (e.g. openssl rand -hex 32)`;
  }
  if (!isLoopback(host) && token === undefined) {
    return `listening on ${host} (beyond loopback) needs a bearer token: set BLOCKWIRE_MCP_TOKEN`;
  }
  return undefined;
}

/** Whether `given` is the token; in constant time (both hashed first, so lengths do not show). */
export function tokenMatches(given: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The authorities (host[:port]) a client may name in Host and Origin. */
function authorities(host: string, port: number, allowedHosts: readonly string[]): Set<string> {
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (!isLoopback(host)) names.add(`${host.includes(':') ? `[${host}]` : host}:${port}`.toLowerCase());
  for (const name of allowedHosts) names.add(name.toLowerCase());
  return names;
}

/** Why a request is refused by the Host/Origin checks, or undefined when it passes. */
export function refusal(
  headers: IncomingMessage['headers'],
  port: number,
  host = DEFAULT_HOST,
  allowedHosts: readonly string[] = [],
): string | undefined {
  const allowed = authorities(host, port, allowedHosts);
  if (!headers.host || !allowed.has(headers.host.toLowerCase())) return 'Host not allowed';
  const origin = headers.origin;
  if (origin === undefined) return undefined; // not a browser: no Origin to check
  let authority: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Origin not allowed';
    authority = url.host.toLowerCase();
  } catch {
    return 'Origin not allowed';
  }
  return allowed.has(authority) ? undefined : 'Origin not allowed';
}

function answer(
  response: ServerResponse,
  status: number,
  body: FrameError,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function reject(response: ServerResponse, status: number, message: string, headers?: Record<string, string>) {
  answer(response, status, frameError(null, -32000, message), headers);
}

/** The body, or undefined once it passed `MAX_BODY_BYTES` (the rest is read and dropped). */
async function bodyOf(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) {
      chunks.length = 0;
      continue;
    }
    chunks.push(chunk);
  }
  return bytes > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? DEFAULT_HOST;
  const refused = bindRefusal(host, options.token);
  if (refused) throw new Error(refused);
  const token = options.token;
  const redact = createRedactor(token ? [token] : []);
  const secretsMasked = (text: string) => redact(options.client.redact(text));
  const maxConcurrent = options.maxConcurrent ?? 32;
  let port = options.port;
  let answering = 0;
  const http: HttpServer = createServer((request, response) => {
    answering++;
    response.once('close', () => answering--);
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refusal(request.headers, port, host, options.allowedHosts);
    if (refused) return reject(response, 403, refused);
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== MCP_PATH) {
      return reject(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    }
    if (token !== undefined) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !tokenMatches(given, token)) {
        const challenge =
          given === undefined
            ? 'Bearer realm="blockwire-mcp"'
            : 'Bearer realm="blockwire-mcp", error="invalid_token"';
        return reject(response, 401, 'Unauthorized: send Authorization: Bearer <BLOCKWIRE_MCP_TOKEN>', {
          'www-authenticate': challenge,
        });
      }
    }
    if (request.method !== 'POST')
      return reject(response, 405, 'Method not allowed: this server is stateless, POST only');
    if (answering > maxConcurrent) {
      return reject(response, 503, `Busy: more than ${maxConcurrent} requests at once; try again`, {
        'retry-after': '1',
      });
    }
    const text = await bodyOf(request);
    if (text === undefined) {
      return answer(
        response,
        413,
        frameError(
          null,
          ErrorCode.InvalidRequest,
          `Invalid request: the body is larger than ${MAX_BODY_BYTES} bytes.`,
        ),
      );
    }
    const checked = checkFrame(text);
    if ('refused' in checked) {
      // With an id, the error answers that request (200, as any JSON-RPC answer); without, the POST is bad.
      const error = {
        ...checked.refused,
        error: { ...checked.refused.error, message: secretsMasked(checked.refused.error.message) },
      };
      return answer(response, error.id === null ? 400 : 200, error);
    }
    const server = createBlockwireMcpServer(options);
    const transport = redactingTransport(
      new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }),
      secretsMasked,
    );
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response, checked.message);
    } catch (error) {
      options.log?.(
        secretsMasked(`request failed: ${error instanceof Error ? error.message : String(error)}`),
      );
      if (!response.headersSent) reject(response, 500, 'Internal server error');
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
