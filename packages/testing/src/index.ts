/**
 * A real HTTP server on 127.0.0.1 for tests: it records every request (method, URL, path, query,
 * headers, body, parsed JSON) and answers with a scripted responder. Used by every package's
 * tests to assert exactly what goes over the wire.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  /** The decoded path, without the query. */
  path: string;
  /** Every query parameter, in order; repeated names keep every value. */
  query: Record<string, string[]>;
  headers: IncomingHttpHeaders;
  /** The raw body text ('' when none). */
  body: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json: unknown;
}

export interface Reply {
  status?: number;
  /** Sent as JSON; omit for an empty body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Answers one request: return a `Reply`, or write to `res` yourself (destroy the socket, never
 * answer, stream a body) and return nothing. `index` counts requests from 0.
 */
export type Responder = (
  request: RecordedRequest,
  res: ServerResponse,
  index: number,
) => Answer | Promise<Answer>;

// biome-ignore lint/suspicious/noConfusingVoidType: a responder that writes `res` itself returns nothing (void)
type Answer = Reply | undefined | void;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** The current responder; tests may swap it. */
  respond: Responder;
  close(): Promise<void>;
}

export async function startServer(respond: Responder = () => ({ body: {} })): Promise<TestServer> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const part of req) chunks.push(part as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) query[name] = [...(query[name] ?? []), value];
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: url.pathname,
      query,
      headers: req.headers,
      body,
      json: parseJson(body),
    };
    state.requests.push(recorded);
    try {
      const reply = await state.respond(recorded, res, state.requests.length - 1);
      if (reply) json(res, reply.status ?? 200, reply.body, reply.headers);
    } catch (error) {
      if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`test responder failed: ${String(error)}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: TestServer = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    respond,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return state;
}

/** Writes a JSON answer (an empty body when `body` is undefined). */
export function json(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/** The URL of a port that refuses connections: bound, then closed. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Base URLs that point every interface at a test server (the EVM one below `/api/v2.2`, like the real one). */
export function baseUrlsFor(server: { url: string }) {
  return { evm: `${server.url}/api/v2.2`, solana: server.url, streams: server.url, node: server.url };
}

/**
 * A test server (and a client made for it) shared by every test of a file: started before the
 * first test, its request log and responder reset after each one, closed after the last.
 * Read `server` and `client` inside tests, not at the top level (they exist once `beforeAll` ran).
 */
export function useTestServer<C extends { close(): Promise<void> }>(
  respond: Responder,
  makeClient: (server: TestServer) => C,
): { readonly server: TestServer; readonly client: C } {
  let server: TestServer | undefined;
  let client: C | undefined;
  beforeAll(async () => {
    server = await startServer(respond);
    client = makeClient(server);
  });
  afterEach(() => {
    if (!server) return;
    server.requests.length = 0;
    server.respond = respond;
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('useTestServer: the server starts in beforeAll; read it inside a test');
      return server;
    },
    get client() {
      if (!client) throw new Error('useTestServer: the client is made in beforeAll; read it inside a test');
      return client;
    },
  };
}
export {
  ADVERSARIAL_LENGTH,
  ADVERSARIAL_PIECES,
  type AdversarialInput,
  adversarialString,
  KNOWN_ADVERSARIAL_INPUTS,
  LINEAR_TIME_LIMIT_MS,
  timeOf,
} from './adversarial.js';
export { findOldNode } from './old-node.js';
export {
  ensureDebianPackage,
  freePort,
  type PostgresServer,
  type RedisServer,
  startPostgres,
  startRedis,
} from './services.js';
