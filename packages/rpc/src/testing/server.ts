// Test helper (not exported): a real HTTP server on 127.0.0.1 that records every request and
// answers with a scripted handler.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON. */
  json: unknown;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, index: number) => void | Promise<void>;

export async function startServer(handler: Handler) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch((error: unknown) => {
        res.writeHead(599).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export interface Call {
  jsonrpc: string;
  id: number;
  method: string;
  params: unknown[];
}

/** The calls of a JSON-RPC request body, whether it was one call or a batch. */
export function callsOf(body: unknown): Call[] {
  return (Array.isArray(body) ? body : [body]) as Call[];
}
