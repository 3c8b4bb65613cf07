import { ApiError, NetworkError, RateLimitError } from '@blockwire/core/operations';
import { LIMIT_EXCEEDED } from './call-queue.js';

// The codes an EIP-1193 provider's errors carry (EIP-1474 for JSON-RPC, EIP-1193 for providers):
// viem's `custom()` transport picks its error class by `code`, ethers keeps it as `error.code`.
/** EIP-1474 "Invalid request": the service refused the request as malformed. */
export const INVALID_REQUEST = -32600;
/** EIP-1474 "Internal error": the service failed (HTTP 5xx). */
export const INTERNAL_ERROR = -32603;
/** EIP-1474 "Resource not found": no node at this address (HTTP 404, e.g. an unknown chain). */
export const RESOURCE_NOT_FOUND = -32001;
/** EIP-1193 "Unauthorized": the API key was refused (HTTP 401 or 403). */
export const UNAUTHORIZED = 4100;
/** EIP-1193 "Disconnected": the node could not be reached (refused, reset, DNS). */
export const DISCONNECTED = 4900;

/** What an HTTP failure of the node interface carries for an EIP-1193 caller, beside its own fields. */
export interface Eip1193ErrorFields {
  code: number;
  /**
   * The HTTP answer's status (and a 429's Retry-After); with no answer, the system's error code
   * (`ECONNREFUSED`), which `code` held before it became the EIP-1193 one.
   */
  data: { status: number; retryAfterMs?: number } | { systemCode: string | undefined };
}

/** The EIP-1474 / EIP-1193 code standing for an HTTP status of the node interface. */
export function eip1193CodeOfStatus(status: number): number {
  if (status === 401 || status === 403) return UNAUTHORIZED;
  if (status === 404) return RESOURCE_NOT_FOUND;
  if (status === 413 || status === 429) return LIMIT_EXCEEDED; // EIP-1474 "Limit exceeded"
  if (status >= 500) return INTERNAL_ERROR;
  return INVALID_REQUEST;
}

/**
 * The error `request()` rejects with: an HTTP failure (`ApiError` and its subclasses) as a copy of
 * itself with the EIP-1474 `code` and a `data` naming the status (and the Retry-After of a 429), so
 * viem and ethers tell a rate limit from a refused key. A copy, because the same error may fail
 * every call of a batch, typed calls included, whose errors stay as they are. A `NetworkError`
 * (no answer at all) gets 4900, Disconnected. Anything else is returned unchanged: a node's
 * `JsonRpcError` keeps its own code, and a `TimeoutError` has none that fits (EIP-1193 and
 * EIP-1474 name no timeout; viem reports it as an unknown RPC error with the SDK's error inside).
 */
export function withEip1193Code(error: unknown): unknown {
  if (error instanceof NetworkError) {
    return copyWith(error, { code: DISCONNECTED, data: { systemCode: error.code } });
  }
  if (!(error instanceof ApiError)) return error;
  const data: { status: number; retryAfterMs?: number } = { status: error.status };
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined)
    data.retryAfterMs = error.retryAfterMs;
  return copyWith(error, { code: eip1193CodeOfStatus(error.status), data });
}

function copyWith<E extends Error>(error: E, fields: Eip1193ErrorFields): E & Eip1193ErrorFields {
  const copy = Object.defineProperties(
    Object.create(Object.getPrototypeOf(error)),
    Object.getOwnPropertyDescriptors(error),
  ) as E & Eip1193ErrorFields;
  // V8's `stack` is an accessor reading the original's hidden state: copy its text instead.
  Object.defineProperty(copy, 'stack', { value: error.stack, writable: true, configurable: true });
  return Object.assign(copy, fields);
}
