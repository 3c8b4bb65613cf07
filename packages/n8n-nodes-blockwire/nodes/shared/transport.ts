import {
  AttemptTimeout,
  createRedactor,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '@blockwire/core/operations';
import type { IAllExecuteFunctions, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './credentials';

/** Any n8n context that can send requests: execute, hook (activation), webhook, load options. */
export type RequestContext = IAllExecuteFunctions;

interface FullResponse {
  statusCode: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}

/**
 * A transport for `createClient` that sends through n8n's `httpRequestWithAuthentication`, so
 * n8n's proxy settings, SSRF rules and credential handling apply, while the SDK keeps validating,
 * retrying and mapping errors (every status comes back to it; nothing is thrown for a 4xx/5xx).
 *
 * Authentication: the `X-API-Key` header of the REST interfaces is dropped here and added by the
 * credential's `authenticate` (one place, the credential, decides it). The JSON-RPC node interface
 * takes the key as the last URL path segment, which n8n's generic authentication cannot write, so
 * the SDK's URL keeps it; that is why no n8n error object is ever passed on from here: n8n's
 * errors carry the request's URL and headers, so a failure becomes a new error with only the
 * failure's code and its message with the key masked.
 */
export function n8nTransport(
  context: RequestContext,
  options: { apiKey: string; timeoutMs: number },
): Transport {
  const redact = createRedactor([options.apiKey]);
  return async (request: TransportRequest): Promise<TransportResponse> => {
    const requestOptions: IHttpRequestOptions = {
      url: request.url,
      method: request.method as IHttpRequestMethods,
      headers: withoutApiKeyHeaders(request.headers),
      body: request.body,
      json: false,
      encoding: 'arraybuffer',
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      // n8n replaces the signal with the execution's cancel signal in a running workflow: the
      // SDK's per-attempt timeout then still ends the attempt, and this ends the socket.
      abortSignal: request.signal,
      timeout: options.timeoutMs,
    };
    let response: FullResponse;
    try {
      response = (await context.helpers.httpRequestWithAuthentication.call(
        context,
        CREDENTIAL_TYPE,
        requestOptions,
      )) as FullResponse;
    } catch (error) {
      throw failureOf(error, redact);
    }
    return {
      status: response.statusCode,
      headers: lowerCaseHeaders(response.headers),
      body: textOf(response.body),
    };
  };
}

function withoutApiKeyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'x-api-key'));
}

function lowerCaseHeaders(headers: Record<string, unknown> | undefined): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  return out;
}

function textOf(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  if (ArrayBuffer.isView(body))
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return JSON.stringify(body);
}

/**
 * What the SDK gets for a request n8n could not complete: an `AttemptTimeout` when n8n ended it
 * at its `timeout` (the SDK reports a TimeoutError and retries it as one), else the failure's code
 * and message (see `sanitizedFailure`).
 */
function failureOf(error: unknown, redact: (text: string) => string): Error {
  const failure = sanitizedFailure(error, redact);
  return failure.code === 'ECONNABORTED' && /timeout/i.test(failure.message) ? new AttemptTimeout() : failure;
}

/** The innermost cause's code and message, masked; nothing else of n8n's error survives. */
function sanitizedFailure(error: unknown, redact: (text: string) => string): Error & { code?: string } {
  let code: string | undefined;
  let message: string | undefined;
  for (
    let current = error, depth = 0;
    typeof current === 'object' && current !== null && depth < 6;
    depth++
  ) {
    const {
      code: ownCode,
      message: ownMessage,
      cause,
    } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof ownCode === 'string' && /^[A-Z][A-Z0-9_]+$/.test(ownCode)) code = ownCode;
    if (typeof ownMessage === 'string' && ownMessage !== '') message = ownMessage;
    current = cause;
  }
  const failure: Error & { code?: string } = new Error(redact(message ?? 'The HTTP request failed'));
  failure.name = 'TransportError';
  if (code) failure.code = code;
  failure.stack = `${failure.name}: ${failure.message}`;
  return failure;
}
