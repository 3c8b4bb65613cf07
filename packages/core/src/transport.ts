/**
 * How a request leaves the process. A `Transport` is the public, pluggable shape (n8n passes one
 * built on its own HTTP helper). The built-in transports also take requests the client has
 * already split into origin and path and settle an `AttemptHandle` instead of a promise: no URL
 * is parsed, and no AbortController, timer or listener is made per attempt (see ./attempts.ts).
 */

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request: the caller's signal combined with the per-attempt timeout. */
  signal: AbortSignal;
  /**
   * Stop reading a body longer than this many bytes, close the connection and throw a
   * `ResponseTooLargeError` (the client checks the length too, after a transport that does not).
   */
  maxResponseBytes?: number;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The raw body text ('' when empty). */
  body: string;
}

/**
 * Sends one HTTP request. Throw on a failure to send or read (with a Node-style `code` such as
 * `ECONNREFUSED` where known); resolve with any status otherwise: the client maps statuses.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A request as the client hands it to a built-in transport: nothing left to parse. */
export interface DirectRequest {
  /** `http://host:port`, as `new URL(baseUrl).origin` gives it. */
  origin: string;
  /** Path and query, already encoded and normalised (no dot segments). */
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  maxResponseBytes: number;
}

/** One attempt in flight: the transport settles it once; the client may cancel it first. */
export interface AttemptHandle {
  resolve(response: TransportResponse): void;
  reject(error: unknown): void;
  /**
   * Set by the transport when it starts: stops the request and closes its connection if an
   * answer is being read. Called at most once, by the client (timeout, caller abort).
   */
  onCancel: ((reason: unknown) => void) | undefined;
}

/**
 * Why an attempt was cut off by its timeout: the client turns it into a `TimeoutError`. A host
 * that times attempts itself (see `ClientRuntime`) rejects with one of these.
 */
export class AttemptTimeout extends Error {}

/** The key under which a built-in transport takes direct requests. */
export const DIRECT = Symbol.for('@blockwire/core:direct-transport');

export interface DirectTransport extends Transport {
  [DIRECT](request: DirectRequest, attempt: AttemptHandle): void;
}

export function isDirectTransport(transport: Transport): transport is DirectTransport {
  return typeof (transport as Partial<DirectTransport>)[DIRECT] === 'function';
}

/**
 * Runs a direct transport for a `TransportRequest` (someone calling the built-in transport
 * itself, or wrapping it): the URL is parsed, and the request's signal cancels it.
 */
export function sendThroughDirect(
  direct: DirectTransport[typeof DIRECT],
  request: TransportRequest,
): Promise<TransportResponse> {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason);
  const url = new URL(request.url);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      attempt.onCancel?.(signal.reason);
      reject(signal.reason);
    };
    const attempt: AttemptHandle = {
      resolve(response) {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      reject(error) {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
      onCancel: undefined,
    };
    signal.addEventListener('abort', onAbort, { once: true });
    direct(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        body: request.body,
        maxResponseBytes: request.maxResponseBytes ?? Number.POSITIVE_INFINITY,
      },
      attempt,
    );
  });
}

/** UTF-8 length of a string, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
