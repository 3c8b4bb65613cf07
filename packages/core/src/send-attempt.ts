import type { AttemptFollowUp, InFlight } from './attempts.js';
import { isPlainPath, type Route } from './client-routes.js';
import type { BaseUrls, ClientRequest, ClientRuntime } from './client-types.js';
import { ResponseTooLargeError } from './errors.js';
import type { PreparedRequest } from './prepared-request.js';
import { PLAIN_PATH, type PlainPathMark } from './request-mapped.js';
import {
  DIRECT,
  type DirectRequest,
  isDirectTransport,
  type Transport,
  type TransportResponse,
  utf8Length,
} from './transport.js';

export interface AttemptSetup {
  transport: Transport;
  inFlight: ReturnType<ClientRuntime['attempts']>;
  baseUrls: Readonly<BaseUrls>;
  maxResponseBytes: number;
}

/**
 * Sends one attempt of a request: through a built-in transport directly, or through the
 * transport's own API. The function returned is that attempt, its outcome given to a follow-up; the attempt loop retries it.
 */
export function createAttemptSender({ transport, inFlight, baseUrls, maxResponseBytes }: AttemptSetup) {
  const direct = isDirectTransport(transport) ? transport[DIRECT] : undefined;
  // Node.js's attempts (attempts.ts, not imported here: a host runtime brings its own) take a
  // direct request as it is, without a function made per attempt to carry it.
  const { startDirect, startDirectThen } = inFlight as Partial<
    Pick<InFlight, 'startDirect' | 'startDirectThen'>
  >;

  /**
   * `attemptOnce(…).then(answered, failed)`, both given `context`: on Node.js's attempts with a
   * built-in transport, done where the attempt settles, with no promise or function made for it.
   */
  function attemptOnceThen<T>(
    call: PreparedRequest,
    followUp: AttemptFollowUp<PreparedRequest, T>,
  ): Promise<T> {
    const { route, req } = call;
    if (startDirectThen && direct && route.direct && hasPlainPath(req)) {
      const request = directRequest(route.direct, call);
      return startDirectThen.call(inFlight, req.signal, direct, request, followUp, call) as Promise<T>;
    }
    return attemptOnce(call).then(
      (response) => followUp.answered(response, call),
      (error: unknown) => followUp.failed(error, call),
    );
  }

  /** The request a built-in transport takes as it is: origin, full path, and the size limit. */
  function directRequest(to: NonNullable<Route['direct']>, call: PreparedRequest): DirectRequest {
    return {
      origin: to.origin,
      path: `${to.basePath}${call.target}`,
      method: call.req.method,
      headers: call.sentHeaders,
      body: call.body,
      maxResponseBytes,
    };
  }

  function attemptOnce(call: PreparedRequest): Promise<TransportResponse> {
    const { route, req, target, sentHeaders: headers, body } = call;
    if (direct && route.direct && hasPlainPath(req)) {
      const request = directRequest(route.direct, call);
      if (startDirect) return startDirect.call(inFlight, req.signal, direct, request);
      return inFlight.start(req.signal, (attempt) => direct(request, attempt));
    }
    return inFlight.start(req.signal, (attempt) => {
      const controller = new AbortController();
      attempt.onCancel = (reason) => controller.abort(reason);
      // A plain JavaScript transport may return a value, not a promise.
      Promise.resolve(
        transport({
          method: req.method,
          url: `${baseUrls[req.api]}${target}`,
          headers: { ...headers },
          body,
          signal: controller.signal,
          maxResponseBytes,
        }),
      )
        .then((response) => {
          // A transport of the caller's own may not stop at the limit: the answer is the same.
          const text = response.body;
          if (text.length * 3 > maxResponseBytes && utf8Length(text) > maxResponseBytes) {
            throw new ResponseTooLargeError(maxResponseBytes, { status: response.status });
          }
          attempt.resolve(response);
        })
        .catch((error: unknown) => attempt.reject(error));
    });
  }

  return { attemptOnceThen };
}

/** Whether a request's path may be sent as it is: known so by its sender, or checked here. */
function hasPlainPath(req: ClientRequest): boolean {
  return (req as ClientRequest & PlainPathMark)[PLAIN_PATH] === true || isPlainPath(req.path);
}
