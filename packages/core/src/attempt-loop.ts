import type { AttemptFollowUp } from './attempts.js';
import type { BaseUrls, ClientResponse, ClientRuntime } from './client-types.js';
import {
  ApiError,
  type BlockwireError,
  NetworkError,
  RateLimitError,
  ResponseTooLargeError,
  TimeoutError,
} from './errors.js';
import { type ClientHooks, type RequestInfo, requestInfo, safeHook, withAddedHeaders } from './hooks.js';
import { describe, errorCode, networkHint, sanitizeCause } from './network-errors.js';
import type { PreparedRequest } from './prepared-request.js';
import { errorDetails, errorFromResponse, parseBody } from './responses.js';
import {
  type AttemptOutcome,
  decideRetry,
  mayHaveTakenEffect,
  parseRetryAfter,
  type RetryOptions,
} from './retry.js';
import type { createAttemptSender } from './send-attempt.js';
import { AttemptTimeout, type TransportResponse } from './transport.js';

export interface AttemptLoopSetup {
  send: ReturnType<typeof createAttemptSender>;
  redact: (text: string) => string;
  baseUrls: Readonly<BaseUrls>;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: Readonly<RetryOptions>;
  sleep: ClientRuntime['sleep'];
}

/**
 * The attempts of a call until one answers 2xx or no retry is left: retries, timeouts, hooks,
 * shared slots, and which error a request ends with. Each attempt's outcome goes to a follow-up
 * where it settles (no async function: its frame would be kept for as long as an attempt is in
 * flight), so the usual call — one attempt, answered 2xx — is this path's first step, not a path
 * of its own.
 */
export function createAttemptLoop(setup: AttemptLoopSetup) {
  const { send, redact, baseUrls, timeoutMs, maxResponseBytes, retry, sleep } = setup;

  /** Runs the call: its 2xx answer (given to its map, if any), or the error it ends with. */
  function run(call: PreparedRequest): Promise<unknown> {
    try {
      return attempt(call);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function attempt(call: PreparedRequest): Promise<unknown> {
    const { req, hooks } = call;
    req.signal?.throwIfAborted();
    call.observer?.attemptStarted(call.attempt);
    if (isTimed(hooks)) call.started = performance.now();
    if (hooks.onRequest) safeHook(hooks, 'onRequest', infoOf(call));
    if (hooks.addHeaders) call.sentHeaders = withAddedHeaders(hooks, infoOf(call), call.headers);
    // No slot is held while waiting to retry: other requests may use it meanwhile.
    if (req.attemptSlots === undefined) return send.attemptOnceThen(call, followUp);
    return req.attemptSlots.take(req.signal, call.attempt > 1).then((slot) => {
      call.slot = slot;
      return send.attemptOnceThen(call, followUp);
    });
  }

  const followUp: AttemptFollowUp<PreparedRequest, unknown> = { answered, failed };

  function answered(response: TransportResponse, call: PreparedRequest): unknown {
    const { hooks } = call;
    call.observer?.answered(response.status);
    if (hooks.onResponse) {
      safeHook(hooks, 'onResponse', {
        ...infoOf(call),
        status: response.status,
        durationMs: performance.now() - call.started,
      });
    }
    if (response.status >= 200 && response.status < 300) {
      // The answer is all here: the slot goes back before it is read, so the next attempt
      // waiting for one goes out first.
      giveSlot(call, 'done');
      const answer: ClientResponse = {
        status: response.status,
        headers: response.headers,
        data: parseBody(response.body),
        attempts: call.attempt,
      };
      return call.map ? call.map(answer, call.req) : answer;
    }
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    const outcome: AttemptOutcome = { kind: 'status', status: response.status, retryAfterMs };
    const error = errorFromResponse(response, retryAfterMs, redact, endedDetails(call, outcome));
    // Answered 429 while other attempts sharing the slots were still in flight.
    const refusedBeside = giveSlot(call, response.status === 429 ? 'refused' : 'done');
    return next(call, outcome, error, refusedBeside);
  }

  function failed(thrown: unknown, call: PreparedRequest): unknown {
    const { req } = call;
    giveSlot(call, 'done');
    if (req.signal?.aborted) throw req.signal.reason;
    let outcome: AttemptOutcome;
    let error: BlockwireError;
    if (thrown instanceof AttemptTimeout) {
      outcome = { kind: 'timeout' };
      error = new TimeoutError(timeoutMs, endedDetails(call, outcome));
    } else if (thrown instanceof ResponseTooLargeError) {
      outcome = { kind: 'too-large', status: thrown.status };
      error = new ResponseTooLargeError(maxResponseBytes, {
        ...endedDetails(call, outcome),
        status: thrown.status,
      });
    } else {
      const code = errorCode(thrown);
      outcome = { kind: 'network', code };
      error = new NetworkError(`Request failed: ${redact(describe(thrown))}`, {
        ...endedDetails(call, outcome),
        code,
        hint: networkHint(code, baseUrls[req.api], req.api),
        cause: sanitizeCause(thrown, redact),
      });
    }
    return next(call, outcome, error, false);
  }

  /** The next attempt after a failed one, or the error the call ends with. */
  function next(
    call: PreparedRequest,
    outcome: AttemptOutcome,
    error: BlockwireError,
    refusedBeside: boolean,
  ): Promise<unknown> {
    const { req } = call;
    const decision = decideRetry({
      attempt: call.attempt,
      outcome,
      idempotent: req.idempotent,
      options: retry,
    });
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
    // A 429 while others of ours are being served most likely says "too many at once": the
    // slots' limit was just lowered, so the request goes again as soon as one is free under it,
    // without waiting out Retry-After. Once per request, and counted as a retry like any other:
    // a service that limits a rate refuses it again, and that 429 is waited out.
    const atOnce = refusedBeside && !call.sentAgainAtOnce;
    if (atOnce) call.sentAgainAtOnce = true;
    const delayMs = atOnce ? 0 : decision.delayMs;
    call.observer?.retrying(error, delayMs);
    if (call.hooks.onRetry) safeHook(call.hooks, 'onRetry', { ...infoOf(call), error, delayMs });
    call.attempt++;
    if (atOnce) return attempt(call);
    return sleep(delayMs, req.signal).then(() => attempt(call));
  }

  /** Gives the attempt's slot back; true when it was refused while others were in flight. */
  function giveSlot(call: PreparedRequest, ended: 'refused' | 'done'): boolean {
    const { slot } = call;
    if (slot === undefined) return false;
    call.slot = undefined;
    return slot.give(ended) === true;
  }

  /** What hooks see of the attempt, key masked: worked out only for a hook. */
  function infoOf(call: PreparedRequest): RequestInfo {
    const { req, route, target, headers, attempt, observer } = call;
    const info = requestInfo(req, route, target, headers, attempt, baseUrls[req.api], redact);
    if (observer) info.callId = observer.callId;
    return info;
  }

  /** What an error says of the attempt that ended so (known only then), key masked. */
  function endedDetails(call: PreparedRequest, ended: AttemptOutcome) {
    const { req, route } = call;
    return {
      method: req.method,
      path: redact(`${req.path}${route.keyPath}`),
      baseUrl: route.shownBaseUrl,
      operation: req.operation,
      attempts: call.attempt,
      outcomeUnknown: !req.idempotent && mayHaveTakenEffect(ended),
    };
  }

  return { run };
}

/** Whether a hook needs the attempt's duration (worked out only then). */
function isTimed(hooks: ClientHooks): boolean {
  return hooks.onResponse !== undefined || hooks.onRetry !== undefined || hooks.onRequest !== undefined;
}
