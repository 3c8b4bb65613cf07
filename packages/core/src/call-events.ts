/**
 * What the `blockwire:call` tracing channel and the `onCallEnd` hook report of a call (see
 * ./diagnostics.ts, which fills it in). Types and the channel's name only.
 */
import type { Api, HttpMethod } from './client-types.js';
import type { BlockwireError } from './errors.js';

/** The name of the tracing channel every call is published on. */
export const CALL_CHANNEL = 'blockwire:call';

/** One attempt of a call, as the call's end reports it. Times in milliseconds. */
export interface AttemptRecord {
  /** 1 for the first attempt. */
  attempt: number;
  /** When it started, in milliseconds since the epoch (fractional). */
  startTime: number;
  durationMs: number;
  /** The HTTP status it was answered with; undefined when it got no answer. */
  status: number | undefined;
  /** The class of the error it ended with (`RateLimitError`, `NetworkError`…); undefined for a 2xx. */
  errorType: string | undefined;
  /** The wait before the next attempt, when there was one. */
  retryDelayMs: number | undefined;
}

/**
 * What a subscriber of `blockwire:call` gets: one object per call, the same at every event
 * (start, end, asyncStart, asyncEnd, error). The fields below `baseUrl` are set when the call
 * has ended. The key is in none of them: `path` and `baseUrl` have it masked, headers are not in.
 */
export interface CallMessage {
  /** Unique within the process: the `callId` of the hooks' `RequestInfo` of the same call. */
  callId: number;
  /** The operation's id, undefined for a plain `client.request`. */
  operation: string | undefined;
  api: Api;
  /** `rest` for the REST interfaces, `rpc` for JSON-RPC. */
  interface: 'rest' | 'rpc';
  method: HttpMethod;
  /** The path below the base URL, key masked. */
  path: string;
  /** The base URL, key masked. */
  baseUrl: string;
  attempts: number;
  /** The last answer's HTTP status; undefined when the last attempt got none. */
  status: number | undefined;
  /** The class of the error the call ended with; undefined when it succeeded. */
  errorType: string | undefined;
  /** Whether a request that is not idempotent may have taken effect though it failed. */
  outcomeUnknown: boolean;
  /** The waits between attempts, in order. */
  retryDelaysMs: number[];
  /** Those of them that waited out a rate limit (a 429, or a `Retry-After` honoured). */
  rateLimitWaitsMs: number[];
  durationMs: number;
  attemptLog: AttemptRecord[];
  /** Set by the channel: the answer on success, the error on failure. */
  result?: unknown;
  error?: unknown;
}

/** What `onCallEnd` is given: the call's end as the channel reports it. */
export type CallEndInfo = Omit<CallMessage, 'result' | 'error'> & {
  /** The error the call ended with; undefined when it succeeded. */
  error: BlockwireError | undefined;
};
