import type { AttemptFollowUp } from './attempts.js';
import { AUTH, type Route, routeFor } from './client-routes.js';
import type { Api, Client, ClientRequest, ClientResponse, ClientRuntime } from './client-types.js';
import {
  ApiError,
  type BlockwireError,
  NetworkError,
  RateLimitError,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
} from './errors.js';
import { callWatched, watchCall } from './diagnostics.js';
import { type ClientHooks, requestInfo, safeHook, withAddedHeaders } from './hooks.js';
import { describe, errorCode, networkHint, sanitizeCause } from './network-errors.js';
import { type ClientOptions, resolveClientOptions } from './options.js';
import { encodeQuery } from './query.js';
import { type MappingClient, REQUEST_MAPPED } from './request-mapped.js';
import { errorDetails, errorFromResponse, parseBody } from './responses.js';
import { type AttemptOutcome, decideRetry, mayHaveTakenEffect, parseRetryAfter } from './retry.js';
import { createAttemptSender } from './send-attempt.js';
import { AttemptTimeout, type TransportResponse } from './transport.js';

// The client's jobs live beside it: the key and headers per interface (client-routes), sending
// one attempt (send-attempt), the query string (query), reading an answer and its error
// (responses), what a network failure says (network-errors), hooks (hooks). This file holds the
// attempt loop: retries, timeouts, and which error a request ends with.

// Replaced with the package's version at build time (tsup.preset.ts); 'dev' when run from source.
declare const __BLOCKWIRE_VERSION__: string | undefined;
const VERSION = typeof __BLOCKWIRE_VERSION__ === 'string' ? __BLOCKWIRE_VERSION__ : 'dev';

/** The usual call while its first attempt is in flight: what comes next needs. */
interface FirstAttempt {
  req: ClientRequest;
  route: Route;
  target: string;
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  map: ((response: ClientResponse, req: ClientRequest) => unknown) | undefined;
}

/** How the first attempt, sent before the attempt loop, ended. */
type FirstOutcome = { response: TransportResponse } | { failed: true; error: unknown };

/**
 * A client on the given runtime (see `ClientRuntime`): base URLs per interface, the key sent the
 * way each expects, retries, timeouts, typed errors. `createClient` is this on Node.js.
 */
export function createClientWith(options: ClientOptions, runtime: ClientRuntime): Client {
  const {
    apiKey,
    redact,
    baseUrls,
    timeoutMs,
    retry,
    hooks: clientHooks,
    maxResponseBytes,
    ...rest
  } = resolveClientOptions(options);
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
  const userAgent =
    rest.userAgent ??
    (runtime.userAgent === undefined ? undefined : `blockwire/${VERSION} ${runtime.userAgent}`);
  const hasHooks =
    clientHooks.onRequest !== undefined ||
    clientHooks.onResponse !== undefined ||
    clientHooks.onRetry !== undefined ||
    clientHooks.addHeaders !== undefined;
  const channel = runtime.callChannel;
  const inFlight = runtime.attempts(timeoutMs);
  const routes = Object.fromEntries(
    (Object.keys(AUTH) as Api[]).map((api) => [api, routeFor(api, baseUrls[api], apiKey, userAgent, redact)]),
  ) as Record<Api, Route>;
  const { attemptOnce, attemptOnceThen } = createAttemptSender({
    transport,
    inFlight,
    baseUrls,
    maxResponseBytes,
  });

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

  function request(req: ClientRequest): Promise<ClientResponse> {
    return send(req, undefined);
  }

  /**
   * `request`, the 2xx answer given to `map` before the promise settles (an operation checks
   * the data there): one promise for the call, not one per layer.
   */
  function send<R extends ClientRequest, T>(
    req: R,
    map: ((response: ClientResponse, req: R) => T) | undefined,
  ): Promise<T> {
    let route: Route;
    let target: string;
    let body: string | undefined;
    try {
      route = routes[req.api];
      // `path` + key + query: below the base URL.
      target = `${req.path}${route.keyPath}${encodeQuery(req.query)}`;
      body = req.body === undefined ? undefined : JSON.stringify(req.body);
    } catch (error) {
      return Promise.reject(error);
    }
    const headers = body === undefined ? route.headers : route.jsonHeaders;
    if (callWatched(channel, clientHooks)) {
      const start = { ...req, path: redact(`${req.path}${route.keyPath}`), baseUrl: route.shownBaseUrl };
      // (watchCall takes only the fields of `CallStart` from it.)
      const call = (hooks: ClientHooks) =>
        requestWithRetries(req, route, target, headers, body, undefined, hooks);
      return mapped(watchCall(start, channel, clientHooks, call), req, map);
    }
    if (hasHooks || req.attemptSlots !== undefined || req.signal?.aborted) {
      return mapped(requestWithRetries(req, route, target, headers, body, undefined), req, map);
    }
    // The usual call: one attempt, answered 2xx. It is sent from here, not from inside the
    // attempt loop: an async function's frame (the loop's every variable) would be kept alive
    // for as long as the attempt is in flight. Anything else continues in the loop, which
    // takes this attempt's outcome as its first (see `firstAttempt`).
    return attemptOnceThen(route, req, target, headers, body, firstAttempt, {
      req,
      route,
      target,
      headers,
      body,
      map: map as ((response: ClientResponse, req: ClientRequest) => unknown) | undefined,
    }) as Promise<T>;
  }

  function mapped<R extends ClientRequest, T>(
    sent: Promise<ClientResponse>,
    req: R,
    map: ((response: ClientResponse, req: R) => T) | undefined,
  ): Promise<T> {
    return map ? sent.then((response) => map(response, req)) : (sent as Promise<T>);
  }

  /** What follows the usual call's first attempt: its answer when 2xx, else the attempt loop. */
  const firstAttempt: AttemptFollowUp<FirstAttempt, unknown> = {
    answered(response, call) {
      if (response.status >= 200 && response.status < 300) {
        const answer = answered(response, 1);
        return call.map ? call.map(answer, call.req) : answer;
      }
      return mapped(
        requestWithRetries(call.req, call.route, call.target, call.headers, call.body, { response }),
        call.req,
        call.map,
      );
    },
    failed(error, call) {
      return mapped(
        requestWithRetries(call.req, call.route, call.target, call.headers, call.body, {
          failed: true,
          error,
        }),
        call.req,
        call.map,
      );
    },
  };

  /**
   * The attempt loop: retries, timeouts, hooks, slots, and which error a request ends with.
   * `first` is the first attempt's outcome when it was already sent (see `send`).
   */
  async function requestWithRetries(
    req: ClientRequest,
    route: Route,
    target: string,
    headers: Readonly<Record<string, string>>,
    body: string | undefined,
    first: FirstOutcome | undefined,
    hooks: ClientHooks = clientHooks,
  ): Promise<ClientResponse> {
    // What errors and hooks show is worked out only when one needs it. No closure is made here:
    // one would put the call's variables in a context allocated on every call, hooks or not.

    // A request sent again at once after a 429 (see below) waits out the next one.
    let sentAgainAtOnce = false;
    for (let attempt = 1; ; attempt++) {
      req.signal?.throwIfAborted();
      const started = hasHooks ? performance.now() : 0;
      if (hooks.onRequest)
        safeHook(
          hooks,
          'onRequest',
          requestInfo(req, route, target, headers, attempt, baseUrls[req.api], redact),
        );
      const sent = hooks.addHeaders
        ? withAddedHeaders(
            hooks,
            requestInfo(req, route, target, headers, attempt, baseUrls[req.api], redact),
            headers,
          )
        : headers;
      let outcome: AttemptOutcome;
      let error: BlockwireError;
      // No slot is held while waiting to retry: other requests may use it meanwhile.
      let slot = req.attemptSlots ? await req.attemptSlots.take(req.signal, attempt > 1) : undefined;
      let status: number | undefined;
      // Answered 429 while other attempts sharing the slots were still in flight.
      let refusedBeside = false;
      try {
        let response: TransportResponse;
        if (attempt === 1 && first) {
          if ('failed' in first) throw first.error;
          response = first.response;
        } else response = await attemptOnce(route, req, target, sent, body);
        status = response.status;
        if (hooks.onResponse) {
          safeHook(hooks, 'onResponse', {
            ...requestInfo(req, route, target, headers, attempt, baseUrls[req.api], redact),
            status: response.status,
            durationMs: performance.now() - started,
          });
        }
        if (response.status >= 200 && response.status < 300) {
          // The answer is all here: the slot goes back before it is read, so the next attempt
          // waiting for one goes out first.
          slot?.give('done');
          slot = undefined;
          return answered(response, attempt);
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
        if (slot) refusedBeside = slot.give(status === 429 ? 'refused' : 'done') === true;
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
      // A 429 while others of ours are being served most likely says "too many at once": the
      // slots' limit was just lowered, so the request goes again as soon as one is free under it,
      // without waiting out Retry-After. Once per request, and counted as a retry like any other:
      // a service that limits a rate refuses it again, and that 429 is waited out.
      const atOnce = refusedBeside && !sentAgainAtOnce;
      if (atOnce) sentAgainAtOnce = true;
      const delayMs = atOnce ? 0 : decision.delayMs;
      if (hooks.onRetry) {
        safeHook(hooks, 'onRetry', {
          ...requestInfo(req, route, target, headers, attempt, baseUrls[req.api], redact),
          error,
          delayMs,
        });
      }
      if (!atOnce) await runtime.sleep(delayMs, req.signal);
    }
  }

  function answered(response: TransportResponse, attempts: number): ClientResponse {
    return { status: response.status, headers: response.headers, data: parseBody(response.body), attempts };
  }

  const client: Client & MappingClient = {
    baseUrls,
    timeoutMs,
    retry,
    maxResponseBytes,
    request,
    [REQUEST_MAPPED]: send,
    redact,
    async close() {
      await ownTransport?.close();
    },
  };
  // The key lives only in the closure above: nothing on the client object holds it.
  return Object.freeze(client);
}
