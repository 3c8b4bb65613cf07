import type { Route } from './client-routes.js';
import type { Api, ClientRequest, HttpMethod } from './client-types.js';
import type { BlockwireError } from './errors.js';

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
