/**
 * Every failure the SDK reports is one of these classes.
 *
 * `instanceof` must hold whichever build created the error (a program may load the ESM build
 * while a dependency loads the CommonJS one), so each error carries a registry-wide brand that
 * lists the kinds it is, and `instanceof` checks that brand instead of the prototype chain.
 */
const KINDS = Symbol.for('@blockwire/core:error-kinds');

type ErrorClass = { readonly kind: string };

export interface ErrorDetails {
  /** HTTP method of the request that failed, e.g. `GET`. */
  method?: string;
  /** Path of the request that failed, relative to its interface's base URL, key masked. */
  path?: string;
  /** The interface's base URL the request went to (key masked): which host was called. */
  baseUrl?: string;
  /** The operation that was running, e.g. `getEvmTokenPrice`. */
  operation?: string;
  /** How many attempts were made before giving up. */
  attempts?: number;
  /** The request may have taken effect although it failed (see `BlockwireError.outcomeUnknown`). */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

/** Appended to the message of an error whose request may have taken effect. */
export const OUTCOME_UNKNOWN_NOTE =
  'Outcome unknown: the request may have reached the service and taken effect; it was not retried, since it is not safe to repeat. Check before trying again, for example by listing what it creates (a Bitcoin stream can be found by its tag)';

export class BlockwireError extends Error {
  static readonly kind: string = 'BlockwireError';
  declare readonly [KINDS]: readonly string[];
  readonly method: string | undefined;
  readonly path: string | undefined;
  /** The base URL the request went to, key masked: `${baseUrl}${path}` is the URL called. */
  readonly baseUrl: string | undefined;
  readonly operation: string | undefined;
  readonly attempts: number | undefined;
  /**
   * True when a request that is not safe to repeat (a create, a replay…) failed in a way that
   * leaves open whether the service carried it out: a timeout, a reset connection, a 5xx, or a
   * reply that could not be read. It was not retried; check its effect before trying again.
   */
  readonly outcomeUnknown: boolean;

  constructor(message: string, details: ErrorDetails = {}) {
    const outcomeUnknown = details.outcomeUnknown === true;
    super(
      outcomeUnknown ? `${message}. ${OUTCOME_UNKNOWN_NOTE}` : message,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.name = new.target.kind;
    this.method = details.method;
    this.path = details.path;
    this.baseUrl = details.baseUrl;
    this.operation = details.operation;
    this.attempts = details.attempts;
    this.outcomeUnknown = outcomeUnknown;
    Object.defineProperty(this, KINDS, { value: kindsOf(new.target), enumerable: false });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    return Array.isArray(kinds) && kinds.includes((this as unknown as ErrorClass).kind);
  }

  toJSON(): Record<string, unknown> {
    const { [KINDS]: _kinds, ...own } = this as unknown as Record<string | symbol, unknown>;
    return { name: this.name, message: this.message, ...own };
  }
}

/** `GET https://host/base/path`, or '' when the request is not known: for error messages. */
function requestOf(details: ErrorDetails): string {
  if (!details.method || details.path === undefined) return '';
  return `${details.method} ${details.baseUrl ?? ''}${details.path}`;
}

function kindsOf(target: unknown): string[] {
  const kinds: string[] = [];
  for (let c = target as (ErrorClass & object) | null; c && 'kind' in c; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, 'kind')) kinds.push(c.kind);
  }
  return kinds;
}

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `addresses.3`; empty for the input as a whole. */
  path: string;
  message: string;
}

/** Raised before any request is sent: the input breaks the operation's rules. */
export class ValidationError extends BlockwireError {
  static override readonly kind: string = 'ValidationError';
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], details: ErrorDetails & { subject?: string } = {}) {
    const subject = details.subject ?? (details.operation ? `input of ${details.operation}` : 'input');
    const list = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
    super(`Invalid ${subject}: ${list.join('; ')}`, details);
    this.issues = issues;
  }
}

export interface ApiErrorDetails extends ErrorDetails {
  status: number;
  /** What the service said, taken from a JSON `message` (string or list), or the plain-text body. */
  serviceMessage?: string;
  /** The parsed response body, when there was one (already redacted). */
  body?: unknown;
  /** The response's headers, names in lower case, values redacted. */
  headers?: Readonly<Record<string, string>>;
  /** The service's id for the request, from the first of `REQUEST_ID_HEADERS` the answer had. */
  requestId?: string;
}

/** Headers an API names its request by, in the order they are looked for. */
export const REQUEST_ID_HEADERS = [
  'x-request-id',
  'request-id',
  'x-amzn-requestid',
  'x-amz-request-id',
  'x-correlation-id',
  'cf-ray',
] as const;

/** The service answered with a non-success HTTP status. */
export class ApiError extends BlockwireError {
  static override readonly kind: string = 'ApiError';
  readonly status: number;
  readonly serviceMessage: string | undefined;
  readonly body: unknown;
  /** The response's headers (names in lower case, values redacted); empty when none were kept. */
  readonly headers: Readonly<Record<string, string>>;
  /** The service's id for this request, to quote when asking its support; undefined when none was given. */
  readonly requestId: string | undefined;

  constructor(details: ApiErrorDetails, summary?: string) {
    const request = requestOf(details);
    const where = request ? ` for ${request}` : '';
    const said = details.serviceMessage ? `: ${details.serviceMessage}` : '';
    const id = details.requestId ? ` (request id ${details.requestId})` : '';
    super(`${summary ?? 'The service answered'} HTTP ${details.status}${where}${said}${id}`, details);
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.body = details.body;
    this.headers = Object.freeze({ ...details.headers });
    this.requestId = details.requestId;
  }
}

export class BadRequestError extends ApiError {
  static override readonly kind: string = 'BadRequestError';
  constructor(details: ApiErrorDetails) {
    super(details, 'The service rejected the request as invalid,');
  }
}

export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
  constructor(details: ApiErrorDetails) {
    super(details, 'The API key was missing or not accepted,');
  }
}

export class PermissionError extends ApiError {
  static override readonly kind: string = 'PermissionError';
  constructor(details: ApiErrorDetails) {
    super(details, 'The API key is not allowed to do this,');
  }
}

export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
  constructor(details: ApiErrorDetails) {
    super(details, 'Not found,');
  }
}

/** HTTP 429, or a `Retry-After` longer than the retry policy allows to wait. */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
  /** How long the service asked to wait before the next request, when it said so. */
  readonly retryAfterMs: number | undefined;
  constructor(details: ApiErrorDetails & { retryAfterMs?: number }) {
    super(details, 'Rate limited,');
    this.retryAfterMs = details.retryAfterMs;
  }
}

export class ServerError extends ApiError {
  static override readonly kind: string = 'ServerError';
  constructor(details: ApiErrorDetails) {
    super(details, 'The service failed,');
  }
}

/** One attempt took longer than `timeoutMs`. */
export class TimeoutError extends BlockwireError {
  static override readonly kind: string = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, details: ErrorDetails = {}) {
    const request = requestOf(details);
    super(`No response within ${timeoutMs} ms${request ? ` (${request})` : ''}`, details);
    this.timeoutMs = timeoutMs;
  }
}

/** The request could not be sent or its response could not be read (refused, reset, DNS...). */
export class NetworkError extends BlockwireError {
  static override readonly kind: string = 'NetworkError';
  /** The system error code, e.g. `ECONNREFUSED` or `ECONNRESET`, when known. */
  readonly code: string | undefined;
  /** `hint`: what to check, said after the request (e.g. whether the emulator is running). */
  constructor(message: string, details: ErrorDetails & { code?: string; hint?: string } = {}) {
    const request = requestOf(details);
    super(`${message}${request ? ` (${request})` : ''}${details.hint ? `. ${details.hint}` : ''}`, details);
    this.code = details.code;
  }
}

/**
 * The response was larger than the client's `maxResponseBytes`: reading stopped there and the
 * connection was closed, so an endless or huge body cannot exhaust memory. Not retried.
 */
export class ResponseTooLargeError extends BlockwireError {
  static override readonly kind: string = 'ResponseTooLargeError';
  /** The limit that was reached, in bytes. */
  readonly limitBytes: number;
  /** The HTTP status of the response, when it was known. */
  readonly status: number | undefined;
  constructor(limitBytes: number, details: ErrorDetails & { status?: number } = {}) {
    const request = requestOf(details);
    super(
      `The response${request ? ` to ${request}` : ''} is larger than maxResponseBytes (${limitBytes} bytes): reading stopped and the connection was closed. Raise the client option maxResponseBytes if an answer this large is expected`,
      details,
    );
    this.limitBytes = limitBytes;
    this.status = details.status;
  }
}

/** A JSON-RPC error object returned by the node interface. */
export class JsonRpcError extends BlockwireError {
  static override readonly kind: string = 'JsonRpcError';
  readonly code: number;
  readonly data: unknown;
  readonly rpcMethod: string | undefined;
  constructor(
    error: { code: number; message: string; data?: unknown },
    details: ErrorDetails & { rpcMethod?: string } = {},
  ) {
    const call = details.rpcMethod ? ` in ${details.rpcMethod}` : '';
    super(`JSON-RPC error ${error.code}${call}: ${error.message}`, details);
    this.code = error.code;
    this.data = error.data;
    this.rpcMethod = details.rpcMethod;
  }
}

/** The response arrived but does not have the shape the contract promises. */
export class ResponseValidationError extends BlockwireError {
  static override readonly kind: string = 'ResponseValidationError';
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], details: ErrorDetails = {}) {
    const list = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
    super(
      `Unexpected response${details.operation ? ` from ${details.operation}` : ''}: ${list.join('; ')}`,
      details,
    );
    this.issues = issues;
  }
}

/** The error class for a non-success status. */
export function apiErrorFor(details: ApiErrorDetails & { retryAfterMs?: number }): ApiError {
  const { status } = details;
  if (status === 400 || status === 422) return new BadRequestError(details);
  if (status === 401) return new AuthenticationError(details);
  if (status === 403) return new PermissionError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 429) return new RateLimitError(details);
  if (status >= 500) return new ServerError(details);
  return new ApiError(details);
}
