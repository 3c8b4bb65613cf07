/**
 * What a call tells the outside when it ends: the `blockwire:call` tracing channel of
 * `node:diagnostics_channel` (the convention undici and fastify follow) and the `onCallEnd` hook.
 * A call is watched only when someone listens: with no subscriber and no `onCallEnd` hook,
 * nothing here runs but one `hasSubscribers` read per call.
 */
import type { AttemptRecord, CallMessage } from './call-events.js';
import type { Api, CallTracingChannel, HttpMethod } from './client-types.js';
import { ApiError, BlockwireError, RateLimitError, ResponseTooLargeError } from './errors.js';
import { type ClientHooks, type RequestInfo, type ResponseInfo, type RetryInfo, safeHook } from './hooks.js';

/** The call's own start, as the client knows it before the first attempt. */
export interface CallStart {
  operation?: string | undefined;
  api: Api;
  method: HttpMethod;
  path: string;
  baseUrl: string;
}

let lastCallId = 0;

/** Whether this call must be watched. Cheap: read on every call. */
export function callWatched(channel: CallTracingChannel | undefined, hooks: ClientHooks): boolean {
  return hooks.onCallEnd !== undefined || channel?.hasSubscribers === true;
}

/**
 * Runs a call watched: `run` is given the hooks the attempt loop calls (the client's, with each
 * attempt recorded on the way), and its answer goes through `map` (an operation checks its data
 * there) before the call ends, so that an answer that fails its check ends the call as failed.
 * The end goes on the channel and to `onCallEnd` exactly once, whatever the outcome.
 */
export function watchCall<A extends { status: number }, T>(
  start: CallStart,
  channel: CallTracingChannel | undefined,
  hooks: ClientHooks,
  run: (hooks: ClientHooks) => Promise<A>,
  map: (answer: A) => T,
): Promise<T> {
  const message = newMessage(start);
  const recorder = new CallRecorder(hooks, message);
  const began = performance.now();
  let status: number | undefined;
  const watched = () =>
    run(recorder)
      .then((answer) => {
        status = answer.status;
        return map(answer);
      })
      .then(
        (value) => {
          recorder.ended(status, undefined, performance.now() - began);
          return value;
        },
        (error: unknown) => {
          recorder.ended(status, error, performance.now() - began);
          throw error;
        },
      );
  return channel?.hasSubscribers ? channel.tracePromise(watched, message) : watched();
}

function newMessage(start: CallStart): CallMessage {
  return {
    callId: ++lastCallId,
    operation: start.operation,
    api: start.api,
    method: start.method,
    path: start.path,
    baseUrl: start.baseUrl,
    interface: start.api === 'node' ? 'rpc' : 'rest',
    attempts: 0,
    status: undefined,
    errorType: undefined,
    outcomeUnknown: false,
    retryDelaysMs: [],
    rateLimitWaitsMs: [],
    durationMs: 0,
    attemptLog: [],
  };
}

/** The hooks of one watched call: each attempt is written into the message, then passed on. */
class CallRecorder implements ClientHooks {
  readonly #hooks: ClientHooks;
  readonly #message: CallMessage;
  #open: { record: AttemptRecord; began: number } | undefined;

  constructor(hooks: ClientHooks, message: CallMessage) {
    this.#hooks = hooks;
    this.#message = message;
    if (hooks.addHeaders) this.addHeaders = (info) => hooks.addHeaders?.({ ...info, callId: message.callId });
  }

  addHeaders: ClientHooks['addHeaders'];

  onRequest(info: RequestInfo): void {
    this.#closeOpen(undefined, undefined);
    const began = performance.now();
    const record: AttemptRecord = {
      attempt: info.attempt,
      startTime: performance.timeOrigin + began,
      durationMs: 0,
      status: undefined,
      errorType: undefined,
      retryDelayMs: undefined,
    };
    this.#message.attempts = info.attempt;
    this.#message.attemptLog.push(record);
    this.#open = { record, began };
    if (this.#hooks.onRequest) safeHook(this.#hooks, 'onRequest', this.#info(info));
  }

  onResponse(info: ResponseInfo): void {
    if (this.#open) {
      this.#open.record.status = info.status;
      this.#open.record.durationMs = performance.now() - this.#open.began;
    }
    if (this.#hooks.onResponse) safeHook(this.#hooks, 'onResponse', this.#info(info));
  }

  onRetry(info: RetryInfo): void {
    const { error, delayMs } = info;
    this.#closeOpen(error, delayMs);
    this.#message.retryDelaysMs.push(delayMs);
    if (isRateLimitWait(error)) this.#message.rateLimitWaitsMs.push(delayMs);
    if (this.#hooks.onRetry) safeHook(this.#hooks, 'onRetry', this.#info(info));
  }

  /** The call is over: `status` of its answer, or the `error` it failed with. */
  ended(status: number | undefined, error: unknown, durationMs: number): void {
    const failure = error instanceof BlockwireError ? error : undefined;
    this.#closeOpen(error, undefined);
    const message = this.#message;
    message.durationMs = durationMs;
    message.status = status ?? statusOf(failure) ?? message.attemptLog.at(-1)?.status;
    message.errorType = error === undefined ? undefined : errorType(error);
    message.outcomeUnknown = failure?.outcomeUnknown === true;
    if (failure?.attempts !== undefined) message.attempts = failure.attempts;
    if (this.#hooks.onCallEnd) {
      const { result: _result, error: _error, ...info } = message;
      safeHook(this.#hooks, 'onCallEnd', { ...info, error: failure });
    }
  }

  /** Ends the attempt in flight, if any (an attempt that got an answer keeps its duration). */
  #closeOpen(error: unknown, retryDelayMs: number | undefined): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    const { record } = open;
    if (record.status === undefined) record.durationMs = performance.now() - open.began;
    if (error !== undefined) record.errorType = errorType(error);
    else if (record.status !== undefined && (record.status < 200 || record.status >= 300))
      record.errorType = `HTTP ${record.status}`;
    record.retryDelayMs = retryDelayMs;
  }

  #info<I extends RequestInfo>(info: I): I {
    return { ...info, callId: this.#message.callId };
  }
}

function isRateLimitWait(error: BlockwireError): boolean {
  return error instanceof RateLimitError;
}

function statusOf(error: BlockwireError | undefined): number | undefined {
  return error instanceof ApiError || error instanceof ResponseTooLargeError ? error.status : undefined;
}

/** The class of an error (`RateLimitError`), or `AbortError` and the like for what is not ours. */
function errorType(error: unknown): string {
  if (error instanceof Error)
    return error.name && error.name !== 'Error' ? error.name : error.constructor.name;
  return typeof error;
}
