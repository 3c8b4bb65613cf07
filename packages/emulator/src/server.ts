/**
 * One HTTP server on one port, each interface under its own prefix: the routes are generated from
 * the operations of @blockwire/prices, entities and streams; JSON-RPC goes to a real anvil.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Operation } from '@blockwire/core';
import { type BodyText, parseJsonBody, readBodyText } from './body.js';
import { createCallerCheck } from './caller.js';
import { type ControlContext, createRequestLog, handleControl, type RequestLogEntry } from './control.js';
import type { DeliveryOptions } from './delivery/engine.js';
import { createFaults, type FaultDecision, type FaultInterface, type FaultOptions } from './faults.js';
import { checkRoutes, type Route } from './handlers/define.js';
import { createEntityRoutes } from './handlers/entities.js';
import { createPriceRoutes, pricedTokenKeys } from './handlers/prices.js';
import type { HandlerResult } from './handlers/result.js';
import { type Anvil, type SeededChain, startAnvil } from './node/anvil.js';
import { NODE_CHAINS, proxyJsonRpc, rpcError } from './node/proxy.js';
import { buildOpenApiDocument } from './openapi.js';
import { openRpcDocument } from './openrpc.js';
import { restOperations } from './operations.js';
import { createPriceScript } from './price-script.js';
import { parseRequestTarget } from './request-target.js';
import { createRouter, type Router } from './router.js';
import { loadState, saveState } from './state.js';
import { createStreamsService } from './streams/service.js';

/**
 * Random-looking on purpose: the SDK masks any run of 8 or more of the key's characters in what it
 * reports, so a key made of words (`blockwire-emulator-key`) masked those words, "emulator"
 * included, in every message.
 */
export const DEFAULT_API_KEY = 'bw-emu-key-4a1c7f02e9';
/** Request bodies above this size are refused with 413. */
export const MAX_BODY_BYTES = 1_048_576;

export interface EmulatorOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** The API key every interface expects. Default `bw-emu-key-4a1c7f02e9`. */
  apiKey?: string;
  /** Seed of every fixture and of the fault PRNG. Default 1. */
  seed?: number;
  /** Start anvil for the node interface. Default true; false answers the node interface with 503. */
  anvil?: boolean;
  /** Persist streams and settings in this JSON file (loaded at start, written after each change). */
  stateFile?: string;
  /** Enforce the real service's rule that webhook targets are public HTTPS endpoints. Default false. */
  strictWebhooks?: boolean;
  /** Faults to inject from the start, per interface (or `all`), and for webhook deliveries (`deliveries`). */
  faults?: FaultOptions;
  /** Webhook retry schedule and timeout. */
  delivery?: DeliveryOptions;
  /**
   * Host names answered besides loopback names and IP literals. Default none: a request naming
   * any other host (DNS rebinding) is refused with 403.
   */
  allowedHosts?: readonly string[];
  /**
   * Web page origins answered (and given CORS headers) besides loopback pages. Default none: a
   * request from any other page is refused with 403, so no website can use the default key.
   */
  allowedOrigins?: readonly string[];
}

export interface EmulatorUrls {
  /** Base of the EVM price and entity interface, ending in `/api/v2.2`. */
  evm: string;
  solana: string;
  streams: string;
  /** Base of the JSON-RPC node interface: POST `{node}/{chain}/{apiKey}`. */
  node: string;
}

export interface Emulator {
  urls: EmulatorUrls;
  apiKey: string;
  /** Base of the control API. */
  control: string;
  /** The chain anvil was seeded with (accounts, contract, transaction hashes); undefined without anvil. */
  chain: SeededChain | undefined;
  /** Stops the server, its sockets, anvil and the streams' timers; writes the state file. */
  close(): Promise<void>;
}

type RestInterface = Exclude<FaultInterface, 'node'>;

const PREFIXES: readonly [string, FaultInterface | 'control'][] = [
  ['/evm/api/v2.2', 'evm'],
  ['/solana', 'solana'],
  ['/streams', 'streams'],
  ['/node', 'node'],
  ['/control', 'control'],
];

/** Starts the whole service on this machine (with anvil unless `anvil: false`); resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  if (apiKey === '') throw new Error('apiKey must not be empty');
  const seed = options.seed ?? 1;
  const faults = createFaults(seed, options.faults);
  const log = createRequestLog();
  const stateFile = options.stateFile;
  const persist = () => {
    if (stateFile) saveState(stateFile, streams.snapshot());
  };
  const streams = createStreamsService({
    seed,
    strictWebhooks: options.strictWebhooks ?? false,
    delivery: options.delivery,
    deliveryFault: () => faults.decideDelivery(),
    state: stateFile ? loadState(stateFile) : undefined,
    // The delivery engine and the simulator's timer change state on their own too (a stream put in
    // error, an xpub window moved). No request can answer 500 for them: a write that fails there is
    // logged, and the emulator keeps serving.
    onChange: () => {
      try {
        persist();
      } catch (error) {
        console.error(
          `[blockwire-emulator] the state file ${stateFile} cannot be written: ${(error as Error).message}`,
        );
      }
    },
  });

  // Write once now: a path that cannot be written fails the start, not the first change or the exit.
  try {
    persist();
  } catch (error) {
    await streams.close();
    throw new Error(`The state file ${stateFile} cannot be written: ${(error as Error).message}`);
  }

  let anvil: Anvil | undefined;
  try {
    if (options.anvil !== false) anvil = await startAnvil({ seed });
  } catch (error) {
    await streams.close();
    throw error;
  }

  // Writes of the streams interface change what the state file keeps.
  const persisting = (route: Route): Route =>
    route.operation.method === 'GET'
      ? route
      : {
          operation: route.operation,
          async serve(input) {
            const result = await route.serve(input);
            if (result.status < 300) persist();
            return result;
          },
        };
  const prices = createPriceScript(pricedTokenKeys(seed));
  const routes = [
    ...createPriceRoutes(seed, prices),
    ...createEntityRoutes(seed),
    ...streams.routes.map(persisting),
  ];
  checkRoutes(routes, restOperations);
  const routesOf = (api: RestInterface) => routes.filter((route) => route.operation.api === api);
  const routers: Record<RestInterface, Router> = {
    evm: createRouter(routesOf('evm')),
    solana: createRouter(routesOf('solana')),
    streams: createRouter(routesOf('streams')),
  };
  const controlContext: ControlContext = { log, faults, streams, node: anvil, prices, changed: persist };

  // Origins of this server's own loopback names; set once listening. Not the Host header: a
  // DNS-rebound attacker's name also points here.
  const ownOrigins = new Set<string>();
  const callers = createCallerCheck(options);
  let openApiDocument: Record<string, unknown> | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `Emulator error: ${(error as Error).message}` });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', answerMalformedRequest);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = headerValue(req.headers.origin);
    const refusal = callers.problem(headerValue(req.headers.host), origin);
    if (refusal) return sendJson(res, 403, { message: refusal }, {}, false);
    // Routed on the path as sent: a URL parser would first resolve `..` and `%2e%2e`.
    const target = parseRequestTarget(req.url ?? '/');
    if ('problem' in target)
      return sendJson(res, 400, { message: `Invalid request path: ${target.problem}` });
    const { path: pathname } = target;
    const search = target.query === '' ? '' : `?${target.query}`;
    const searchParams = new URLSearchParams(target.query);
    const method = (req.method ?? 'GET').toUpperCase();
    if (pathname === '/openapi.json' && (method === 'GET' || method === 'HEAD')) {
      openApiDocument ??= buildOpenApiDocument();
      return sendJson(res, 200, openApiDocument);
    }
    if (pathname === '/openrpc.json' && (method === 'GET' || method === 'HEAD')) {
      return sendJson(res, 200, openRpcDocument());
    }
    const prefix = PREFIXES.find(([p]) => pathname === p || pathname.startsWith(`${p}/`));
    if (!prefix) {
      return sendJson(res, 404, {
        message: `Not found: ${pathname}. Interfaces: ${PREFIXES.map(([p]) => p).join(', ')}; the contract: /openapi.json, /openrpc.json`,
      });
    }
    const [base, name] = prefix;
    const path = pathname.slice(base.length) || '/';
    if (name === 'control') return serveControl(req, res, method, path, searchParams);
    const corsOrigin = callers.corsOrigin(origin);
    if (corsOrigin !== undefined) {
      res.setHeader('access-control-allow-origin', corsOrigin);
      res.setHeader('access-control-expose-headers', 'x-request-id, retry-after');
      res.setHeader('vary', 'origin');
    }

    const started = Date.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    const traceparent = traceparentOf(req.headers.traceparent);
    // Every answer names its request, as hosted APIs do (the caller's id, or one of ours), so a
    // client's error can quote it.
    res.setHeader('x-request-id', requestId ?? `emu_${(++answeredRequests).toString(36)}`);
    const entry: RequestLogEntry = {
      time: new Date(started).toISOString(),
      receivedAt: preciseNow(),
      method,
      interface: name,
      path: name === 'node' ? maskNodePath(pathname) : `${pathname}${search}`,
      status: 0,
      durationMs: 0,
      ...(requestId === undefined ? {} : { requestId }),
      ...(traceparent === undefined ? {} : { traceparent }),
    };
    res.on('close', () => {
      entry.status = res.headersSent ? res.statusCode : 0;
      entry.durationMs = Date.now() - started;
      log.add(entry);
    });
    // Taken just before the answer is written, so a client cannot have read it any earlier.
    const answered = () => {
      entry.answeredAt = preciseNow();
    };

    if (method === 'OPTIONS') return sendCorsPreflight(res);
    const fault = faults.decide(name);
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.kind === 'reset') {
      entry.fault = 'reset';
      req.socket.destroy();
      return;
    }
    if (fault.kind === 'status') {
      entry.fault = 'status';
      const headers: Record<string, string> =
        (fault.status === 429 || fault.status === 503) && fault.retryAfterSeconds !== null
          ? { 'retry-after': String(fault.retryAfterSeconds) }
          : {};
      answered();
      return sendJson(res, fault.status, { message: faultMessage(fault) }, headers);
    }

    const result = await serveInterface(req, name, method, path, searchParams, entry);
    answered();
    if (fault.kind === 'truncate') {
      entry.fault = 'truncate';
      return sendTruncated(res, result);
    }
    return sendJson(res, result.status, result.body);
  }

  async function serveInterface(
    req: IncomingMessage,
    name: FaultInterface,
    method: string,
    path: string,
    query: URLSearchParams,
    entry: RequestLogEntry,
  ): Promise<HandlerResult> {
    const raw = await readBodyText(req, MAX_BODY_BYTES);
    if (name === 'node') return serveNode(method, path, raw);
    if (!raw.ok) return { status: raw.status, body: { message: raw.message } };

    if (!keyMatches(headerValue(req.headers['x-api-key']), apiKey))
      return unauthorized(req.headers['x-api-key']);
    const router = routers[name];
    const match = router.match(method, path);
    if (match.kind === 'none') return { status: 404, body: { message: `Not found: ${method} ${path}` } };
    if (match.kind === 'wrong-method') {
      return {
        status: 405,
        body: { message: `Method ${method} not allowed on ${path}; use ${match.allowed.join(' or ')}` },
      };
    }
    entry.operation = match.route.operation.id;
    const body = parseJsonBody(raw.text);
    if (!body.ok) return { status: 400, body: { message: body.message } };
    return router.serve(match, { query: queryRecord(query), body: body.value });
  }

  async function serveNode(method: string, path: string, raw: BodyText): Promise<HandlerResult> {
    const segments = path.split('/').filter(Boolean);
    if (segments.length !== 2) {
      return {
        status: 404,
        body: { message: 'Not found: the node interface is POST {node}/{chain}/{apiKey}' },
      };
    }
    const [chain, key] = segments as [string, string];
    if (!keyMatches(safeDecode(key), apiKey)) return unauthorized(key);
    if (method !== 'POST') return { status: 405, body: { message: 'The node interface takes POST only' } };
    if (!anvil) {
      return {
        status: 503,
        body: {
          message: 'The node interface is disabled: the emulator was started without anvil (--no-anvil)',
        },
      };
    }
    if (!raw.ok) {
      return raw.status === 413
        ? { status: 413, body: { message: raw.message } }
        : { status: 400, body: rpcError(-32700, `Parse error: ${raw.message}`) };
    }
    return proxyJsonRpc(anvil.url, chain, raw.text, { limitCall: () => faults.limitRpcCall() });
  }

  async function serveControl(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress)) {
      return sendJson(res, 403, { message: 'The control API answers loopback clients only' }, {}, false);
    }
    // A browser on this machine is a loopback client too: refuse pages of any other origin, which
    // could otherwise send "simple" cross-site POSTs here (set faults, mine blocks).
    const origin = headerValue(req.headers.origin);
    if (origin !== undefined && !ownOrigins.has(origin)) {
      return sendJson(
        res,
        403,
        { message: `The control API refuses requests from web pages of another origin (${origin})` },
        {},
        false,
      );
    }
    const raw = await readBodyText(req, MAX_BODY_BYTES);
    if (!raw.ok) return sendJson(res, raw.status, { message: raw.message }, {}, false);
    const body = parseJsonBody(raw.text);
    if (!body.ok) return sendJson(res, 400, { message: body.message }, {}, false);
    const result = await handleControl(controlContext, method, path, body.value, query);
    return sendJson(res, result.status, result.body, {}, false);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error) => {
    await Promise.allSettled([streams.close(), anvil?.close()]);
    throw error;
  });
  const address = server.address() as AddressInfo;
  const root = `http://${urlHost(address.address)}:${address.port}`;
  for (const name of [urlHost(address.address), 'localhost', '127.0.0.1', '[::1]']) {
    ownOrigins.add(`http://${name}:${address.port}`);
  }

  let closing: Promise<void> | undefined;
  return {
    urls: {
      evm: `${root}/evm/api/v2.2`,
      solana: `${root}/solana`,
      streams: `${root}/streams`,
      node: `${root}/node`,
    },
    apiKey,
    control: `${root}/control`,
    chain: anvil?.seeded,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await stopped;
        await Promise.allSettled([streams.close(), anvil?.close()]);
        persist();
      })();
      return closing;
    },
  };
}

function unauthorized(given: unknown): HandlerResult {
  // Never echo the key that was sent: it may be a real one, mistyped.
  return {
    status: 401,
    body: { message: given ? 'Invalid API key' : 'Missing API key: send it in the X-API-Key header' },
  };
}

function keyMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The node path with every segment but a known chain slug masked: the key may sit anywhere a caller put it. */
function maskNodePath(pathname: string): string {
  const [, prefix, ...rest] = pathname.split('/');
  const shown = rest.map((segment, index) =>
    segment === '' || (index === 0 && NODE_CHAINS.includes(segment)) ? segment : '***',
  );
  return ['', prefix, ...shown].join('/');
}

function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    record[name] = values.length === 1 ? values[0]! : values;
  }
  return record;
}

/** For loopback pages (and `allowedOrigins`): the origin itself is echoed per request, never `*`. */
const CORS = {
  'access-control-allow-headers': 'x-api-key, content-type, x-request-id',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
};

function sendCorsPreflight(res: ServerResponse): void {
  res.writeHead(204, CORS);
  res.end();
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  cors = true,
): void {
  if (body === undefined) {
    // 204: a JSON-RPC notification (or a batch of them) gets no reply.
    res.writeHead(status, { ...(cors ? CORS : {}), ...headers });
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(cors ? CORS : {}),
    ...headers,
  });
  res.end(text);
}

/**
 * A request Node's parser refused (bad request line, bad header, headers too large) gets a JSON
 * error like every other 4xx, instead of Node's bare `400 Bad Request` with no body.
 */
function answerMalformedRequest(error: Error & { code?: string; reason?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const reason = error.reason ?? error.message;
  const text = JSON.stringify({
    message: `Malformed HTTP request: ${reason} (${error.code ?? 'parse error'})`,
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(text)}\r\n` +
      'connection: close\r\n\r\n' +
      text,
  );
}

/** Headers promise the whole body; half of it arrives, then the connection drops. */
function sendTruncated(res: ServerResponse, result: HandlerResult): void {
  const text = Buffer.from(JSON.stringify(result.body) ?? '');
  res.writeHead(result.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': text.length,
  });
  res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.destroy());
}

function faultMessage(fault: Extract<FaultDecision, { kind: 'status' }>): string {
  if (fault.status !== 429) return `Injected fault: HTTP ${fault.status}`;
  return fault.retryAfterSeconds === null
    ? 'Too many requests (injected fault)'
    : `Too many requests (injected fault); retry after ${fault.retryAfterSeconds} s`;
}

/** Epoch milliseconds with sub-millisecond precision (the request log's clock). */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** A caller's `X-Request-Id`, kept in the log when it is short visible ASCII (it is echoed as is). */
let answeredRequests = 0;

function requestIdOf(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && /^[\x21-\x7e]{1,128}$/.test(value) ? value : undefined;
}

/** A W3C Trace Context `traceparent` (version, trace id, parent id, flags), kept as sent. */
function traceparentOf(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(value)
    ? value
    : undefined;
}

function isLoopback(address: string | undefined): boolean {
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address === '::ffff:127.0.0.1' ||
    !!address?.startsWith('127.')
  );
}

function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
