import type { CallEndInfo } from './call-events.js';
import { AUTH, type Route } from './client-routes.js';
import type { Api, ClientRequest, HttpMethod } from './client-types.js';
import { type BlockwireError, ValidationError } from './errors.js';

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
  /**
   * The call this attempt belongs to, the `callId` of the `blockwire:call` channel's message:
   * set when the call is watched (a subscriber on the channel, or an `onCallEnd` hook).
   */
  callId?: number;
}

export interface ResponseInfo extends RequestInfo {
  status: number;
  durationMs: number;
}

export interface RetryInfo extends RequestInfo {
  /** Why the attempt failed. */
  error: BlockwireError;
  /**
   * How long the client waits before the next attempt: 0 for a 429 sent again as soon as a slot
   * of a batched call is free (see `AttemptSlot`), however long that takes.
   */
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
  /**
   * Once per call, when it has ended however it ended (an answer, an error, no answer at all):
   * attempts, status, error class, waits, total time. See `CallEndInfo`.
   */
  onCallEnd?(info: CallEndInfo): unknown;
  /**
   * Headers to add to an attempt (a `traceparent`, a correlation id), called before each one,
   * synchronously. It may only add: a header the request already has (the key, `accept`,
   * `content-type`, `user-agent`), `host` and the framing headers are refused with a
   * `ValidationError`, which the call fails with. What it throws is ignored, like any hook's.
   */
  addHeaders?(info: RequestInfo): Readonly<Record<string, string>> | undefined;
}

/** Headers no hook may set: they would change where a request goes or how it is framed. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  ...Object.values(AUTH).flatMap((auth) => ('header' in auth ? [auth.header.toLowerCase()] : [])),
]);
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The attempt's headers with those `addHeaders` gives, checked: see `ClientHooks.addHeaders`. */
export function withAddedHeaders(
  hooks: ClientHooks,
  info: RequestInfo,
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  let added: Readonly<Record<string, string>> | undefined;
  try {
    added = hooks.addHeaders?.(info);
  } catch {
    return headers;
  }
  if (added === undefined || added === null) return headers;
  const sent: Record<string, string> = { ...headers };
  const present = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const issues: { path: string; message: string }[] = [];
  for (const [name, value] of Object.entries(added)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) issues.push({ path: name, message: 'is not a valid header name' });
    else if (RESERVED_HEADERS.has(lower) || present.has(lower))
      issues.push({
        path: name,
        message: 'may not be set by a hook: it may only add headers the request does not have',
      });
    else if (typeof value !== 'string' || !HEADER_VALUE.test(value))
      issues.push({ path: name, message: 'must be a string without line breaks or control characters' });
    else sent[lower] = value;
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'headers from hooks.addHeaders' });
  return sent;
}

/** What hooks see of an attempt, key masked. */
export function requestInfo(
  req: ClientRequest,
  route: Route,
  target: string,
  headers: Readonly<Record<string, string>>,
  attempt: number,
  baseUrl: string,
  redact: (text: string) => string,
): RequestInfo {
  return {
    operation: req.operation,
    api: req.api,
    method: req.method,
    url: redact(`${baseUrl}${target}`),
    path: redact(`${req.path}${route.keyPath}`),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)])),
    attempt,
  };
}

export function safeHook<K extends keyof ClientHooks>(
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
