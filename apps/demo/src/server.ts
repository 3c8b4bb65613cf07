/**
 * The demo's HTTP server, on 127.0.0.1 only: the page (static files), the API the page calls
 * (typed routes that call the SDK; the key stays here), the live board's server-sent events,
 * and the webhook receiver the Bitcoin stream delivers to.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createRedactor, validateInput } from '@blockwire/core';
import type { BitcoinBoard } from './bitcoin-board.js';
import { readJsonBody, sendJson, serveStatic } from './http.js';
import { DemoError, toProblem } from './problems.js';
import type { Route } from './routes/route.js';
import { withRequestCount } from './service-requests.js';
import type { BoardEvents } from './views.js';

/** Where the stream delivers: the receiver of `createWebhookHandler`. */
export const WEBHOOK_PATH = '/webhooks/bitcoin';

/** The page's files. Resolved from the package folder, so it holds for src/ and dist/ alike. */
export const PUBLIC_DIR = fileURLToPath(new URL('../src/public/', import.meta.url));
/** The page's input checks, built from src/inputs.ts for the browser (tsup.config.ts). */
export const CHECKS_BUNDLE = fileURLToPath(new URL('../dist/public/', import.meta.url));
const CHECKS_PATH = '/lib/checks.js';

const HEARTBEAT_MS = 15_000;

/** The live board as the event stream sees it. */
export interface BoardFeed {
  snapshot(): BoardEvents['board'];
  subscribe(listener: <E extends keyof BoardEvents>(event: E, data: BoardEvents[E]) => void): () => void;
}

export interface DemoServerOptions {
  routes: Route[];
  /** The stream's receiver, while the board is on. */
  receiver: () => BitcoinBoard['receiver'] | undefined;
  feed: BoardFeed;
  /** Secrets to mask in anything sent or logged. */
  secrets: string[];
  log: (message: string) => void;
  publicDir?: string;
}

export interface DemoServer {
  server: Server;
  /** Starts listening on 127.0.0.1; resolves to the page's URL. */
  listen(port: number): Promise<string>;
  close(): Promise<void>;
}

export function createDemoServer(options: DemoServerOptions): DemoServer {
  const redact = createRedactor(options.secrets);
  const log = (message: string) => options.log(redact(message));
  const publicDir = options.publicDir ?? PUBLIC_DIR;
  const routes = new Map(options.routes.map((route) => [`${route.method} ${route.path}`, route]));
  const eventStreams = new Set<ServerResponse>();
  let origin = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`demo server error on ${req.method} ${req.url}: ${describe(error)}`);
      if (!res.headersSent) sendJson(res, 500, toProblem(undefined), redact);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const method = req.method ?? 'GET';
    // Signed by the service and checked by the handler; it may arrive through a tunnel under
    // another host name, so the page's host checks below do not apply.
    const receiver = url.pathname === WEBHOOK_PATH ? options.receiver() : undefined;
    if (receiver) return receiver(req, res);

    const refusal = checkCaller(req) ?? (url.pathname.startsWith('/api/') ? checkFetchSite(req) : undefined);
    if (refusal) return sendJson(res, 403, { message: refusal }, redact);

    if (url.pathname === '/api/bitcoin/events' && method === 'GET') return openEventStream(req, res);
    if (url.pathname.startsWith('/api/')) return serveApi(req, res, method, url);
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (url.pathname === CHECKS_PATH) return serveStatic(CHECKS_BUNDLE, '/checks.js', res, method === 'HEAD');
    return serveStatic(publicDir, url.pathname, res, method === 'HEAD');
  }

  /**
   * Only this page may use the API: a request naming another host (DNS rebinding) or sent by a
   * page of another origin is refused, so no website open in the same browser can spend the
   * API key or drive the simulator.
   */
  function checkCaller(req: IncomingMessage): string | undefined {
    const host = req.headers.host ?? '';
    const { port } = server.address() as AddressInfo;
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      return `This demo answers only at http://127.0.0.1:${port}/.`;
    }
    const from = req.headers.origin;
    if (from !== undefined && from !== origin && from !== `http://localhost:${port}`) {
      return 'Requests from other web pages are refused.';
    }
    return undefined;
  }

  /**
   * A browser sends no `Origin` with a cross-site `<img>` or `<script>` GET, but it does send
   * `Sec-Fetch-Site`: the API (which spends the key) answers only this page (`same-origin`), a
   * URL typed or bookmarked (`none`), and clients that are not browsers (no header at all).
   * `same-site` is refused too: another port of 127.0.0.1 is the same site.
   */
  function checkFetchSite(req: IncomingMessage): string | undefined {
    const site = req.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
    return 'Requests from other web pages are refused.';
  }

  async function serveApi(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
  ): Promise<void> {
    const route = routes.get(`${method} ${url.pathname}`);
    if (!route) {
      const known = [...routes.values()].some((candidate) => candidate.path === url.pathname);
      const problem = known
        ? { status: 405, message: `${method} is not allowed here.` }
        : { status: 404, message: `There is no API route ${url.pathname}.` };
      return sendJson(res, problem.status, { message: problem.message }, redact);
    }
    let input: unknown;
    try {
      const raw = method === 'GET' ? Object.fromEntries(url.searchParams) : await readJsonBody(req);
      input = validateInput(route.input, raw);
      const { result, requests } = await withRequestCount(() => route.handle(input));
      res.setHeader('x-service-requests', String(requests));
      sendJson(res, 200, result, redact);
    } catch (error) {
      const problem = toProblem(error, input === undefined ? undefined : route.subject?.(input));
      if (problem.status >= 500) log(`${method} ${url.pathname} failed: ${describe(error)}`);
      sendJson(
        res,
        problem.status,
        { message: problem.message, ...(problem.field ? { field: problem.field } : {}) },
        redact,
      );
    }
  }

  function openEventStream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    const send = <E extends keyof BoardEvents>(event: E, data: BoardEvents[E]) => {
      res.write(`event: ${event}\ndata: ${redact(JSON.stringify(data))}\n\n`);
    };
    const unsubscribe = options.feed.subscribe(send);
    send('board', options.feed.snapshot());
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    eventStreams.add(res);
    const cleanUp = () => {
      clearInterval(heartbeat);
      unsubscribe();
      eventStreams.delete(res);
    };
    req.on('close', cleanUp);
    res.on('close', cleanUp);
  }

  return {
    server,
    listen: (port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          resolve(`${origin}/`);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of eventStreams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function describe(error: unknown): string {
  if (error instanceof DemoError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
