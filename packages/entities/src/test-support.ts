/** A real HTTP server on 127.0.0.1 for tests: records every request and answers with `respond`. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, createClient } from '@blockwire/core';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
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

export const API_KEY = 'test-key-1234567890';

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

/** A client whose every interface points at the test server (the EVM one below `/api/v2.2`). */
export function clientFor(server: TestServer): Client {
  return createClient({
    apiKey: API_KEY,
    baseUrls: {
      evm: `${server.url}/api/v2.2`,
      solana: server.url,
      streams: server.url,
      node: server.url,
    },
    retry: false,
  });
}
