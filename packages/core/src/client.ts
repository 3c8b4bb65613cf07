import {
  ApiError,
  apiErrorFor,
  type BlockwireError,
  type ErrorDetails,
  NetworkError,
  RateLimitError,
  ResponseTooLargeError,
  TimeoutError,
} from './errors.js';
import {
  type Api,
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
  sleepAtLeast,
} from './retry.js';
import { createUndiciTransport, type Transport, type TransportResponse } from './transport.js';

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

/** A client for the service: base URLs per interface, the key sent the way each expects, retries, timeouts, typed errors. */
export function createClient(options: ClientOptions): Client {
  const { apiKey, redact, baseUrls, timeoutMs, retry, hooks, maxResponseBytes, ...rest } =
    resolveClientOptions(options);
  const ownTransport = rest.transport ? undefined : createUndiciTransport();
  const transport = rest.transport ?? ownTransport!;
  const userAgent = rest.userAgent ?? `blockwire/${VERSION} node/${process.versions.node}`;

  async function request(req: ClientRequest): Promise<ClientResponse> {
    const auth = AUTH[req.api];
    const queryString = encodeQuery(req.query);
    const keyPath = 'pathSegment' in auth ? `/${encodeURIComponent(apiKey)}` : '';
    const url = `${baseUrls[req.api]}${req.path}${keyPath}${queryString}`;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if ('header' in auth) headers[auth.header] = apiKey;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (body !== undefined) headers['content-type'] = 'application/json';

    const shownPath = redact(`${req.path}${keyPath}`);
    const info = (attempt: number): RequestInfo => ({
      operation: req.operation,
      api: req.api,
      method: req.method,
      url: redact(url),
      path: shownPath,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)])),
      attempt,
    });
    const shownBaseUrl = redact(baseUrls[req.api]);
    const where = { method: req.method, path: shownPath, baseUrl: shownBaseUrl, operation: req.operation };

    for (let attempt = 1; ; attempt++) {
      req.signal?.throwIfAborted();
      const started = performance.now();
      safeHook(() => hooks.onRequest?.(info(attempt)));
      let outcome: AttemptOutcome;
      let error: BlockwireError;
      // Known only once the attempt ended; passed to the error so its message says so.
      const outcomeOf = (ended: AttemptOutcome) => ({
        ...where,
        attempts: attempt,
        outcomeUnknown: !req.idempotent && mayHaveTakenEffect(ended),
      });
      try {
        const response = await sendOnce(
          transport,
          { method: req.method, url, headers, body, maxResponseBytes },
          timeoutMs,
          req.signal,
        );
        // A transport of the caller's own may not stop at the limit: the answer is the same.
        if (Buffer.byteLength(response.body) > maxResponseBytes) {
          throw new ResponseTooLargeError(maxResponseBytes, { status: response.status });
        }
        safeHook(() =>
          hooks.onResponse?.({
            ...info(attempt),
            status: response.status,
            durationMs: performance.now() - started,
          }),
        );
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
        error = errorFromResponse(response, retryAfterMs, redact, outcomeOf(outcome));
      } catch (thrown) {
        if (req.signal?.aborted) throw req.signal.reason;
        if (thrown instanceof AttemptTimeout) {
          outcome = { kind: 'timeout' };
          error = new TimeoutError(timeoutMs, outcomeOf(outcome));
        } else if (thrown instanceof ResponseTooLargeError) {
          outcome = { kind: 'too-large', status: thrown.status };
          error = new ResponseTooLargeError(maxResponseBytes, {
            ...outcomeOf(outcome),
            status: thrown.status,
          });
        } else {
          const code = errorCode(thrown);
          outcome = { kind: 'network', code };
          error = new NetworkError(`Request failed: ${redact(describe(thrown))}`, {
            ...outcomeOf(outcome),
            code,
            hint: networkHint(code, baseUrls[req.api], req.api),
            cause: sanitizeCause(thrown, redact),
          });
        }
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
      safeHook(() => hooks.onRetry?.({ ...info(attempt), error, delayMs: decision.delayMs }));
      await sleepAtLeast(decision.delayMs, req.signal);
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

/** A query string (`?a=1&b=x`) from a record; undefined and null values are left out, arrays repeat the name. */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString().replace(/\+/g, '%20');
  return text ? `?${text}` : '';
}

class AttemptTimeout extends Error {}

async function sendOnce(
  transport: Transport,
  req: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
    maxResponseBytes: number;
  },
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<TransportResponse> {
  // One controller per attempt, fed by the timer and the caller's signal. Not AbortSignal.any():
  // Node keeps a combined signal that has listeners alive as long as its sources, so with a
  // long-lived caller signal (one per n8n execution, one per process) every request leaked.
  const controller = new AbortController();
  const signal = controller.signal;
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  if (callerSignal?.aborted) onCallerAbort();
  try {
    return await Promise.race([
      transport({ ...req, body: req.body, signal }),
      // A transport that ignores the signal still gets cut off.
      new Promise<never>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    ]);
  } catch (error) {
    if (signal.reason instanceof AttemptTimeout && !callerSignal?.aborted) throw new AttemptTimeout();
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
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

function safeHook(call: () => unknown): void {
  try {
    const result = call();
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
  type BaseUrls,
  type ClientOptions,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  REDACTED,
};
