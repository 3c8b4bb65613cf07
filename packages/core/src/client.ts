import type { AttemptSlots } from './adaptive-concurrency.js';
import {
  ApiError,
  apiErrorFor,
  type BlockwireError,
  type ErrorDetails,
  NetworkError,
  RateLimitError,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
} from './errors.js';
import {
  type Api,
  BASE_URL_VARIABLES,
  type BaseUrls,
  type ClientOptions,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  resolveClientOptions,
} from './options.js';
import { REDACTED, redactValue } from './redact.js';
import {
  type AttemptOutcome,
  decideRetry,
  mayHaveTakenEffect,
  parseRetryAfter,
  type RetryOptions,
} from './retry.js';
import {
  type AttemptHandle,
  AttemptTimeout,
  DIRECT,
  type DirectRequest,
  isDirectTransport,
  type Transport,
  type TransportResponse,
  utf8Length,
} from './transport.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

// Replaced with the package's version at build time (tsup.preset.ts); 'dev' when run from source.
declare const __BLOCKWIRE_VERSION__: string | undefined;
const VERSION = typeof __BLOCKWIRE_VERSION__ === 'string' ? __BLOCKWIRE_VERSION__ : 'dev';

/** Where the key goes: a header for the REST interfaces, the last path segment for JSON-RPC. */
const AUTH: Record<Api, { header: string } | { pathSegment: true }> = {
  evm: { header: 'X-API-Key' },
  streams: { header: 'X-API-Key' },
  solana: { header: 'X-Api-Key' },
  node: { pathSegment: true },
};

/** What hooks see of a request. The key is masked everywhere in it. */
export interface RequestInfo {
  operation: string | undefined;
  api: Api;
  method: HttpMethod;
  /** Full URL, key masked. */
  url: string;
  /** Path relative to the interface's base URL, key masked. */
  path: string;
  headers: Record<string, string>;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface ResponseInfo extends RequestInfo {
  status: number;
  durationMs: number;
}

export interface RetryInfo extends RequestInfo {
  /** Why the attempt failed. */
  error: BlockwireError;
  /** How long the client waits before the next attempt. */
  delayMs: number;
}

/**
 * For logging and metrics. A hook may be sync or async; it is not awaited, and whatever it throws
 * or rejects with is ignored: a hook cannot change a request's outcome or take the process down.
 */
export interface ClientHooks {
  onRequest?(info: RequestInfo): unknown;
  onResponse?(info: ResponseInfo): unknown;
  onRetry?(info: RetryInfo): unknown;
}

export type QueryValue = string | number | boolean | bigint | null | undefined | readonly (string | number)[];

export interface ClientRequest {
  api: Api;
  method: HttpMethod;
  /** Path below the interface's base URL, each segment already encoded, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** Safe to send twice? Decides which failures are retried. */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
  /** Name of the operation, for errors and hooks. */
  operation?: string;
  /**
   * A limit on attempts in flight shared with other requests (see `AdaptiveConcurrency`): each
   * attempt takes a slot before it is sent and gives it back, saying whether it was answered 429.
   */
  attemptSlots?: AttemptSlots | undefined;
}

export interface ClientResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** The parsed JSON body (undefined when empty; the raw text when it is not JSON). */
  data: unknown;
  attempts: number;
}

export interface Client {
  readonly baseUrls: Readonly<BaseUrls>;
  readonly timeoutMs: number;
  readonly retry: Readonly<RetryOptions>;
  readonly maxResponseBytes: number;
  /** Sends a request with auth, retries, timeout and error mapping; resolves only on 2xx. */
  request(request: ClientRequest): Promise<ClientResponse>;
  /** Masks the API key in any text. */
  redact(text: string): string;
  /** Closes the default transport's sockets (not needed for an injected transport). */
  close(): Promise<void>;
}

/** Headers, URL pieces and what errors show, for one interface: worked out once per client. */
interface Route {
  /** Base URL, key masked (it may hold the key when pasted from a dashboard). */
  shownBaseUrl: string;
  /** `/<key>` for the node interface, '' elsewhere. */
  keyPath: string;
  /** For GET and friends; shared, never changed (a transport of your own gets a copy). */
  headers: Readonly<Record<string, string>>;
  /** The same with `content-type: application/json`, for requests with a body. */
  jsonHeaders: Readonly<Record<string, string>>;
  /** Where a built-in transport sends, without parsing a URL; undefined when the base URL is unusual. */
  direct: { origin: string; basePath: string } | undefined;
}

/**
 * What a client needs from the platform it runs on: timers, a default transport, its name. The
 * client itself (retries, errors, redaction) is the same everywhere; `createClient` gives it the
 * Node.js (or fetch) runtime, and a host with its own HTTP stack and waits (an n8n node) gives
 * it that host's.
 */
export interface ClientRuntime {
  /** The transport when the options give none; leave out where a transport is always given. */
  defaultTransport?(): Transport & { close(): Promise<void> };
  /** The runtime's part of the default User-Agent (`node/24.1.0`), if any. */
  userAgent: string | undefined;
  /**
   * Starts attempts of one client, each ended after `timeoutMs` (rejecting with
   * `AttemptTimeout`) or when `signal` aborts (rejecting with its reason).
   */
  attempts(timeoutMs: number): {
    start(
      signal: AbortSignal | undefined,
      send: (attempt: AttemptHandle) => void,
    ): Promise<TransportResponse>;
  };
  /** Waits at least `ms` before a retry; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/**
 * A client on the given runtime (see `ClientRuntime`): base URLs per interface, the key sent the
 * way each expects, retries, timeouts, typed errors. `createClient` is this on Node.js.
 */
export function createClientWith(options: ClientOptions, runtime: ClientRuntime): Client {
  const { apiKey, redact, baseUrls, timeoutMs, retry, hooks, maxResponseBytes, ...rest } =
    resolveClientOptions(options);
  const ownTransport = rest.transport ? undefined : runtime.defaultTransport?.();
  if (!rest.transport && !ownTransport) {
    throw new ValidationError(
      [{ path: 'transport', message: 'is required here: this runtime has no default transport' }],
      {
        subject: 'client options',
      },
    );
  }
  const transport = rest.transport ?? ownTransport!;
  const direct = isDirectTransport(transport) ? transport[DIRECT] : undefined;
  const userAgent =
    rest.userAgent ??
    (runtime.userAgent === undefined ? undefined : `blockwire/${VERSION} ${runtime.userAgent}`);
  const hasHooks =
    hooks.onRequest !== undefined || hooks.onResponse !== undefined || hooks.onRetry !== undefined;
  const inFlight = runtime.attempts(timeoutMs);
  const routes = Object.fromEntries(
    (Object.keys(AUTH) as Api[]).map((api) => [api, routeFor(api, baseUrls[api], apiKey, userAgent, redact)]),
  ) as Record<Api, Route>;

  /** What hooks see of an attempt, key masked. */
  function requestInfo(
    req: ClientRequest,
    route: Route,
    target: string,
    headers: Readonly<Record<string, string>>,
    attempt: number,
  ): RequestInfo {
    return {
      operation: req.operation,
      api: req.api,
      method: req.method,
      url: redact(`${baseUrls[req.api]}${target}`),
      path: redact(`${req.path}${route.keyPath}`),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)])),
      attempt,
    };
  }

  /** What an error says of the attempt that ended so (known only then), key masked. */
  function endedDetails(req: ClientRequest, route: Route, attempt: number, ended: AttemptOutcome) {
    return {
      method: req.method,
      path: redact(`${req.path}${route.keyPath}`),
      baseUrl: route.shownBaseUrl,
      operation: req.operation,
      attempts: attempt,
      outcomeUnknown: !req.idempotent && mayHaveTakenEffect(ended),
    };
  }

  /** One attempt: through a built-in transport directly, or through the transport's own API. */
  function attemptOnce(
    route: Route,
    req: ClientRequest,
    target: string,
    headers: Readonly<Record<string, string>>,
    body: string | undefined,
  ): Promise<TransportResponse> {
    if (direct && route.direct && isPlainPath(req.path)) {
      const request: DirectRequest = {
        origin: route.direct.origin,
        path: `${route.direct.basePath}${target}`,
        method: req.method,
        headers,
        body,
        maxResponseBytes,
      };
      return inFlight.start(req.signal, (attempt) => direct(request, attempt));
    }
    return inFlight.start(req.signal, (attempt) => {
      const controller = new AbortController();
      attempt.onCancel = (reason) => controller.abort(reason);
      // A plain JavaScript transport may return a value, not a promise.
      Promise.resolve(
        transport({
          method: req.method,
          url: `${baseUrls[req.api]}${target}`,
          headers: { ...headers },
          body,
          signal: controller.signal,
          maxResponseBytes,
        }),
      )
        .then((response) => {
          // A transport of the caller's own may not stop at the limit: the answer is the same.
          const text = response.body;
          if (text.length * 3 > maxResponseBytes && utf8Length(text) > maxResponseBytes) {
            throw new ResponseTooLargeError(maxResponseBytes, { status: response.status });
          }
          attempt.resolve(response);
        })
        .catch((error: unknown) => attempt.reject(error));
    });
  }

  async function request(req: ClientRequest): Promise<ClientResponse> {
    const route = routes[req.api];
    // `path` + key + query: below the base URL.
    const target = `${req.path}${route.keyPath}${encodeQuery(req.query)}`;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers = body === undefined ? route.headers : route.jsonHeaders;
    // What errors and hooks show is worked out only when one needs it. No closure is made here:
    // one would put the call's variables in a context allocated on every call, hooks or not.

    for (let attempt = 1; ; attempt++) {
      req.signal?.throwIfAborted();
      const started = hasHooks ? performance.now() : 0;
      if (hooks.onRequest) safeHook(hooks, 'onRequest', requestInfo(req, route, target, headers, attempt));
      let outcome: AttemptOutcome;
      let error: BlockwireError;
      // No slot is held while waiting to retry: other requests may use it meanwhile.
      const slot = req.attemptSlots ? await req.attemptSlots.take(req.signal) : undefined;
      let status: number | undefined;
      try {
        const response = await attemptOnce(route, req, target, headers, body);
        status = response.status;
        if (hooks.onResponse) {
          safeHook(hooks, 'onResponse', {
            ...requestInfo(req, route, target, headers, attempt),
            status: response.status,
            durationMs: performance.now() - started,
          });
        }
        if (response.status >= 200 && response.status < 300) {
          return {
            status: response.status,
            headers: response.headers,
            data: parseBody(response.body),
            attempts: attempt,
          };
        }
        const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
        outcome = { kind: 'status', status: response.status, retryAfterMs };
        error = errorFromResponse(response, retryAfterMs, redact, endedDetails(req, route, attempt, outcome));
      } catch (thrown) {
        if (req.signal?.aborted) throw req.signal.reason;
        if (thrown instanceof AttemptTimeout) {
          outcome = { kind: 'timeout' };
          error = new TimeoutError(timeoutMs, endedDetails(req, route, attempt, outcome));
        } else if (thrown instanceof ResponseTooLargeError) {
          outcome = { kind: 'too-large', status: thrown.status };
          error = new ResponseTooLargeError(maxResponseBytes, {
            ...endedDetails(req, route, attempt, outcome),
            status: thrown.status,
          });
        } else {
          const code = errorCode(thrown);
          outcome = { kind: 'network', code };
          error = new NetworkError(`Request failed: ${redact(describe(thrown))}`, {
            ...endedDetails(req, route, attempt, outcome),
            code,
            hint: networkHint(code, baseUrls[req.api], req.api),
            cause: sanitizeCause(thrown, redact),
          });
        }
      } finally {
        slot?.give(status === 429 ? 'refused' : 'done');
      }
      const decision = decideRetry({ attempt, outcome, idempotent: req.idempotent, options: retry });
      if (!decision.retry) {
        if (
          decision.reason === 'retry-after-too-long' &&
          !(error instanceof RateLimitError) &&
          error instanceof ApiError
        ) {
          // A 503 that asks for a longer wait than allowed: report it as the rate limit it is.
          throw new RateLimitError({ ...errorDetails(error), retryAfterMs: decision.retryAfterMs });
        }
        throw error;
      }
      if (hooks.onRetry) {
        safeHook(hooks, 'onRetry', {
          ...requestInfo(req, route, target, headers, attempt),
          error,
          delayMs: decision.delayMs,
        });
      }
      await runtime.sleep(decision.delayMs, req.signal);
    }
  }

  const client: Client = {
    baseUrls,
    timeoutMs,
    retry,
    maxResponseBytes,
    request,
    redact,
    async close() {
      await ownTransport?.close();
    },
  };
  // The key lives only in the closure above: nothing on the client object holds it.
  return Object.freeze(client);
}

function routeFor(
  api: Api,
  baseUrl: string,
  apiKey: string,
  userAgent: string | undefined,
  redact: (text: string) => string,
): Route {
  const auth = AUTH[api];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (userAgent !== undefined) headers['user-agent'] = userAgent;
  if ('header' in auth) headers[auth.header] = apiKey;
  const url = new URL(baseUrl);
  // Sent without parsing only when the URL parser would leave the base URL as it is.
  const plain =
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    baseUrl === `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  return {
    shownBaseUrl: redact(baseUrl),
    keyPath: 'pathSegment' in auth ? `/${encodeURIComponent(apiKey)}` : '',
    headers: Object.freeze({ ...headers }),
    jsonHeaders: Object.freeze({ ...headers, 'content-type': 'application/json' }),
    direct: plain ? { origin: url.origin, basePath: baseUrl.slice(url.origin.length) } : undefined,
  };
}

/**
 * A path the URL parser would send as it is: only characters it leaves alone, and no dot
 * segment (`.`, `..`, `%2e`…, which it resolves). The operations' paths always are; a path given
 * to `client.request` that is not goes through the parser, as a URL would.
 */
function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path);
}
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e)(?:\.|%2e)?(?:\/|$)/i;

/**
 * The query string (with its `?`), encoded exactly as `URLSearchParams` does, with spaces as
 * `%20`; undefined and null values are left out, lists repeat the name.
 */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  let text = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null || !Object.hasOwn(query, name)) continue;
    if (Array.isArray(value)) {
      for (const item of value) text += `&${encodeQueryText(name)}=${encodeQueryText(String(item))}`;
    } else text += `&${encodeQueryText(name)}=${encodeQueryText(String(value))}`;
  }
  return text === '' ? '' : `?${text.slice(1)}`;
}

/** encodeURIComponent leaves `!'()~` as they are; the form encoding URLSearchParams uses does not. */
const LEFT_BY_URI_COMPONENT = /[!'()~]/;
const LEFT_BY_URI_COMPONENT_ALL = /[!'()~]/g;

function encodeQueryText(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate: URLSearchParams sends U+FFFD in its place.
    return new URLSearchParams([['', text]]).toString().slice(1).replace(/\+/g, '%20');
  }
  return LEFT_BY_URI_COMPONENT.test(encoded)
    ? encoded.replace(LEFT_BY_URI_COMPONENT_ALL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    : encoded;
}

/** The parsed JSON body; undefined for an empty one, the text itself when it is not JSON. */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text.trim() === '' ? undefined : text;
  }
}

function errorFromResponse(
  response: TransportResponse,
  retryAfterMs: number | undefined,
  redact: (text: string) => string,
  details: ErrorDetails,
): ApiError {
  const body = redactValue(parseBody(response.body), redact);
  return apiErrorFor({
    ...details,
    status: response.status,
    body,
    serviceMessage: serviceMessageOf(body),
    retryAfterMs,
  });
}

/** The service's own words: `{ message: string | string[] }`, `{ error }`, or a plain-text body. */
export function serviceMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail']) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
    if (Array.isArray(value) && value.length) return value.map(String).join('; ');
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { message?: unknown }).message === 'string'
    ) {
      return (value as { message: string }).message;
    }
  }
  return undefined;
}

function errorDetails(error: ApiError) {
  return {
    status: error.status,
    method: error.method,
    path: error.path,
    baseUrl: error.baseUrl,
    operation: error.operation,
    attempts: error.attempts,
    serviceMessage: error.serviceMessage,
    body: error.body,
  };
}

/** What to check after a connection failure, when the code says something a person can act on. */
function networkHint(code: string | undefined, baseUrl: string, api: Api): string | undefined {
  const host = new URL(baseUrl).hostname;
  if (code === 'ECONNREFUSED' && isLoopback(host)) {
    return `Nothing is listening at ${new URL(baseUrl).host}: is the emulator running? Start it with npx blockwire-emulator, or check baseUrls.${api}`;
  }
  if (code === 'ENOTFOUND') return `The host ${host} does not resolve: check baseUrls.${api}`;
  return undefined;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function errorCode(error: unknown): string | undefined {
  const codes: string[] = [];
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    e = cause;
  }
  // undici wraps the system error (ECONNRESET, ECONNREFUSED) in its own: the system code says more.
  return codes.find((code) => !code.startsWith('UND_ERR_')) ?? codes[0];
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = errorCode(error);
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** A copy of a transport error that is safe to expose: no URL or header with the key in it. */
function sanitizeCause(error: unknown, redact: (text: string) => string): Error {
  const copy = new Error(redact(error instanceof Error ? error.message : String(error)));
  copy.name = error instanceof Error ? error.name : 'Error';
  const code = errorCode(error);
  if (code) Object.assign(copy, { code });
  copy.stack = redact(`${copy.name}: ${copy.message}`);
  return copy;
}

function safeHook<K extends keyof ClientHooks>(
  hooks: ClientHooks,
  name: K,
  info: Parameters<NonNullable<ClientHooks[K]>>[0],
): void {
  try {
    const result = (hooks[name] as ((info: unknown) => unknown) | undefined)?.call(hooks, info);
    // An async hook that rejects would otherwise be an unhandled rejection: exit 1 by default.
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
      (result as PromiseLike<unknown>).then(undefined, ignore);
    }
  } catch {
    // A hook is for logging and metrics: its failure must not change the request's outcome.
  }
}

function ignore(): void {}

export {
  type Api,
  BASE_URL_VARIABLES,
  type BaseUrls,
  type ClientOptions,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  REDACTED,
};
