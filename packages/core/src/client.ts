import { createAttemptLoop } from './attempt-loop.js';
import { AUTH, type Route, routeFor } from './client-routes.js';
import type { Api, Client, ClientRequest, ClientResponse, ClientRuntime } from './client-types.js';
import { callWatched, watchCall } from './diagnostics.js';
import { ValidationError } from './errors.js';
import { type ClientOptions, resolveClientOptions } from './options.js';
import { type AnswerMap, PreparedRequest } from './prepared-request.js';
import { type MappingClient, REQUEST_MAPPED } from './request-mapped.js';
import { createAttemptSender } from './send-attempt.js';
import { VALIDATION, type ValidationPaths, validationPaths } from './speed/index.js';

// The client's jobs live beside it: the key and headers per interface (client-routes), one call
// worked out once (prepared-request), its attempts and retries (attempt-loop), sending one attempt
// (send-attempt), reading an answer and its error (responses), hooks (hooks). This file wires them.

// Replaced with the package's version at build time (tsup.preset.ts); 'dev' when run from source.
declare const __BLOCKWIRE_VERSION__: string | undefined;
const VERSION = typeof __BLOCKWIRE_VERSION__ === 'string' ? __BLOCKWIRE_VERSION__ : 'dev';

/**
 * A client on the given runtime (see `ClientRuntime`): base URLs per interface, the key sent the
 * way each expects, retries, timeouts, typed errors. `createClient` is this on Node.js.
 */
export function createClientWith(options: ClientOptions, runtime: ClientRuntime): Client {
  const { apiKey, redact, baseUrls, timeoutMs, retry, hooks, maxResponseBytes, fastValidation, ...rest } =
    resolveClientOptions(options);
  const ownTransport = rest.transport ? undefined : runtime.defaultTransport?.();
  if (!rest.transport && !ownTransport) {
    throw new ValidationError(
      [{ path: 'transport', message: 'is required here: this runtime has no default transport' }],
      { subject: 'client options' },
    );
  }
  const transport = rest.transport ?? ownTransport!;
  const userAgent =
    rest.userAgent ??
    (runtime.userAgent === undefined ? undefined : `blockwire/${VERSION} ${runtime.userAgent}`);
  const routes = Object.fromEntries(
    (Object.keys(AUTH) as Api[]).map((api) => [api, routeFor(api, baseUrls[api], apiKey, userAgent, redact)]),
  ) as Record<Api, Route>;
  const channel = runtime.callChannel;
  const inFlight = runtime.attempts(timeoutMs);
  const send = createAttemptSender({ transport, inFlight, baseUrls, maxResponseBytes });
  const loop = createAttemptLoop({
    send,
    redact,
    baseUrls,
    timeoutMs,
    maxResponseBytes,
    retry,
    sleep: runtime.sleep,
  });

  /**
   * `request`, the 2xx answer given to `map` before the promise settles (an operation checks
   * the data there): one promise for the call, not one per layer.
   */
  function requestMapped<R extends ClientRequest, T>(
    req: R,
    map: ((response: ClientResponse, req: R) => T) | undefined,
  ): Promise<T> {
    // Watched (a channel subscriber, an onCallEnd hook): the answer is mapped inside the watch,
    // so that an answer failing its check ends the call as failed.
    const watched = callWatched(channel, hooks);
    let call: PreparedRequest;
    try {
      call = new PreparedRequest(routes, req, watched ? undefined : (map as AnswerMap | undefined), hooks);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!watched) return loop.run(call) as Promise<T>;
    const { route } = call;
    const start = { ...req, path: redact(`${req.path}${route.keyPath}`), baseUrl: route.shownBaseUrl };
    return watchCall(
      start,
      channel,
      hooks,
      (observer) => {
        call.observer = observer;
        return loop.run(call) as Promise<ClientResponse>;
      },
      (response) => (map ? map(response, req) : (response as T)),
    );
  }

  const client: Client & MappingClient & { [VALIDATION]: ValidationPaths } = {
    baseUrls,
    timeoutMs,
    retry,
    maxResponseBytes,
    request: (req) => requestMapped(req, undefined),
    [REQUEST_MAPPED]: requestMapped,
    [VALIDATION]: validationPaths(fastValidation, runtime.fieldCompiler),
    redact,
    async close() {
      await ownTransport?.close();
    },
  };
  // The key lives only in the closure above: nothing on the client object holds it.
  return Object.freeze(client);
}
