/**
 * What a client takes and gives: the request, its answer, the client, the runtime it runs on, the
 * options of one call. Types only, imported by every part of the client and by the operations, so
 * none of them imports the client itself.
 */
import type { AttemptSlots } from './adaptive-concurrency.js';
import type { QueryValue } from './query.js';
import type { RetryOptions } from './retry.js';
import type { FieldCompiler } from './speed/index.js';
import type { AttemptHandle, Transport, TransportResponse } from './transport.js';

/** The four interfaces of the service, each with its own base URL. */
export type Api = 'evm' | 'solana' | 'streams' | 'node';
export type BaseUrls = Record<Api, string>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

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
  /**
   * Makes the field checks of an answer's object shapes as code, where the platform may make
   * code from text (see speed/compile-fields.ts); leave out where it must not (an n8n node).
   */
  fieldCompiler?: FieldCompiler;
  /** The `blockwire:call` tracing channel, where the runtime has `node:diagnostics_channel`. */
  callChannel?: CallTracingChannel;
}

/**
 * The part of a `TracingChannel` the client uses. The runtime brings it (see ./runtime.ts): on
 * a runtime without `node:diagnostics_channel` there is none, and only the hooks see calls.
 */
export interface CallTracingChannel {
  readonly hasSubscribers: boolean;
  tracePromise<T>(fn: () => Promise<T>, context: object): Promise<T>;
}

/** The options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
}
