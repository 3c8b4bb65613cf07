/**
 * What a call tells the outside when it ends: the `blockwire:call` tracing channel of
 * `node:diagnostics_channel` (the convention undici and fastify follow) and the `onCallEnd` hook.
 * A call is watched only when someone listens: with no subscriber and no `onCallEnd` hook,
 * nothing here runs but one `hasSubscribers` read per call.
 */
import type { AttemptRecord, CallEndInfo, CallMessage } from './call-events.js';
import type { Api, CallTracingChannel, HttpMethod } from './client-types.js';
import { ApiError, BlockwireError, RateLimitError, ResponseTooLargeError } from './errors.js';
import { type ClientHooks, safeHook } from './hooks.js';
import type { AttemptObserver } from './prepared-request.js';

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
 * Runs a call watched: `run` is given the observer the attempt loop tells of each attempt, and
 * its answer goes through `map` (an operation checks its data there) before the call ends, so
 * that an answer that fails its check ends the call as failed. The end goes on the channel and to
 * `onCallEnd` exactly once, whatever the outcome.
 */
export function watchCall<A extends { status: number }, T>(
  start: CallStart,
  channel: CallTracingChannel | undefined,
  hooks: ClientHooks,
  run: (observer: AttemptObserver) => Promise<A>,
  map: (answer: A) => T,
): Promise<T> {
  const recorder = new CallRecorder(newMessage(start));
  const began = performance.now();
  let status: number | undefined;
  const ended = (error: unknown) => {
    recorder.ended(status, error, performance.now() - began);
    if (hooks.onCallEnd) safeHook(hooks, 'onCallEnd', recorder.endInfo(error));
  };
  const watched = () =>
    run(recorder)
      .then((answer) => {
        status = answer.status;
        return map(answer);
      })
      .then(
        (value) => {
          ended(undefined);
          return value;
        },
        (error: unknown) => {
          ended(error);
          throw error;
        },
      );
  return channel?.hasSubscribers ? channel.tracePromise(watched, recorder.message) : watched();
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

/** One watched call's account: each attempt written into the message as the loop reports it. */
class CallRecorder implements AttemptObserver {
  readonly message: CallMessage;
  #open: { record: AttemptRecord; began: number } | undefined;

  constructor(message: CallMessage) {
    this.message = message;
  }

  get callId(): number {
    return this.message.callId;
  }

  attemptStarted(attempt: number): void {
    this.#closeOpen(undefined, undefined);
    const began = performance.now();
    const record: AttemptRecord = {
      attempt,
      startTime: performance.timeOrigin + began,
      durationMs: 0,
      status: undefined,
      errorType: undefined,
      retryDelayMs: undefined,
    };
    this.message.attempts = attempt;
    this.message.attemptLog.push(record);
    this.#open = { record, began };
  }

  answered(status: number): void {
    if (!this.#open) return;
    this.#open.record.status = status;
    this.#open.record.durationMs = performance.now() - this.#open.began;
  }

  retrying(error: BlockwireError, delayMs: number): void {
    this.#closeOpen(error, delayMs);
    this.message.retryDelaysMs.push(delayMs);
    if (isRateLimitWait(error)) this.message.rateLimitWaitsMs.push(delayMs);
  }

  /** The call is over: `status` of its answer, or the `error` it failed with. */
  ended(status: number | undefined, error: unknown, durationMs: number): void {
    const failure = error instanceof BlockwireError ? error : undefined;
    this.#closeOpen(error, undefined);
    const { message } = this;
    message.durationMs = durationMs;
    message.status = status ?? statusOf(failure) ?? message.attemptLog.at(-1)?.status;
    message.errorType = error === undefined ? undefined : errorType(error);
    message.outcomeUnknown = failure?.outcomeUnknown === true;
    if (failure?.attempts !== undefined) message.attempts = failure.attempts;
  }

  /** What `onCallEnd` is given: the message without the channel's fields, with the error. */
  endInfo(error: unknown): CallEndInfo {
    const { result: _result, error: _error, ...info } = this.message;
    return { ...info, error: error instanceof BlockwireError ? error : undefined };
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
