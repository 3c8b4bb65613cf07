/** A real HTTP server on 127.0.0.1 for the management tests: records every request and answers with `respond`. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, type ClientOptions, createClient } from '@blockwire/core';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  path: string;
  query: Record<string, string[]>;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Responder = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  respond: Responder;
  close(): Promise<void>;
}

export const API_KEY = 'streams-test-key-0123456789';
/** The streams base URL has a path of its own in the tests, to prove paths are joined below it. */
export const STREAMS_BASE_PATH = '/streams-api';

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
      json: body ? JSON.parse(body) : undefined,
    };
    state.requests.push(recorded);
    try {
      const reply = await state.respond(recorded);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
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

/** A client whose streams interface points at the test server; no retries unless asked for. */
export function clientFor(server: TestServer, options: Partial<ClientOptions> = {}): Client {
  return createClient({
    apiKey: API_KEY,
    baseUrls: { streams: `${server.url}${STREAMS_BASE_PATH}` },
    retry: false,
    ...options,
  });
}
