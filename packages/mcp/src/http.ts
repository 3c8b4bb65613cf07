/**
 * Streamable HTTP on 127.0.0.1, stateless: each POST gets a fresh server and transport. The MCP
 * spec asks a local server to check `Origin` (DNS rebinding: a web page in the user's browser
 * posting to localhost) and to bind to localhost only; the Host header is checked as well, since
 * a rebound name arrives with a foreign Host.
 */
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type BlockwireMcpOptions, createBlockwireMcpServer } from './server.js';

export interface HttpServerOptions extends BlockwireMcpOptions {
  /** 0 picks a free port. */
  port: number;
  /** Where failures are reported (already redacted); default: nowhere. */
  log?: (line: string) => void;
}

export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3920/mcp`. */
  url: string;
  close(): Promise<void>;
}

export const MCP_PATH = '/mcp';
const HOST = '127.0.0.1';

/** Hosts a local page may use to reach this port; anything else is a foreign origin. */
function localAuthorities(port: number): Set<string> {
  return new Set([`${HOST}:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** Why a request is refused by the Host/Origin checks, or undefined when it passes. */
export function refusal(headers: IncomingMessage['headers'], port: number): string | undefined {
  const local = localAuthorities(port);
  if (!headers.host || !local.has(headers.host.toLowerCase())) return 'Host not allowed';
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
  return local.has(authority) ? undefined : 'Origin not allowed';
}

function reject(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  let port = options.port;
  const http: HttpServer = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refusal(request.headers, port);
    if (refused) return reject(response, 403, refused);
    if (new URL(request.url ?? '/', `http://${HOST}`).pathname !== MCP_PATH) {
      return reject(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    }
    if (request.method !== 'POST')
      return reject(response, 405, 'Method not allowed: this server is stateless, POST only');
    const server = createBlockwireMcpServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response);
    } catch (error) {
      options.log?.(
        options.client.redact(`request failed: ${error instanceof Error ? error.message : String(error)}`),
      );
      if (!response.headersSent) reject(response, 500, 'Internal server error');
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, HOST, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
