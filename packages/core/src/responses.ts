import { type ApiError, apiErrorFor, type ErrorDetails, REQUEST_ID_HEADERS } from './errors.js';
import { redactValue } from './redact.js';
import type { TransportResponse } from './transport.js';

/** The parsed JSON body; undefined for an empty one, the text itself when it is not JSON. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text.trim() === '' ? undefined : text;
  }
}

/** The error of a non-2xx answer, its body redacted. */
export function errorFromResponse(
  response: TransportResponse,
  retryAfterMs: number | undefined,
  redact: (text: string) => string,
  details: ErrorDetails,
): ApiError {
  const body = redactValue(parseBody(response.body), redact);
  const headers = redactedHeaders(response.headers, redact);
  return apiErrorFor({
    ...details,
    status: response.status,
    body,
    serviceMessage: serviceMessageOf(body),
    headers,
    requestId: requestIdOf(headers),
    retryAfterMs,
  });
}

/** Headers that carry credentials or session state: kept by name only. */
const SECRET_HEADERS = new Set(['set-cookie', 'cookie', 'authorization', 'proxy-authorization', 'x-api-key']);

/** A response's headers for an error: names in lower case, secrets withheld, the key masked in the rest. */
export function redactedHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  redact: (text: string) => string,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    kept[key] = SECRET_HEADERS.has(key) ? '[redacted]' : redact(value).slice(0, 1024);
  }
  return kept;
}

/** The service's request id: visible ASCII, at most 200 characters, from the first header giving one. */
function requestIdOf(headers: Record<string, string>): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers[name]?.trim();
    if (value && value.length <= 200 && /^[\x21-\x7e]+$/.test(value)) return value;
  }
  return undefined;
}

/** The service's own words: `{ message: string | string[] }`, `{ error }`, or a plain-text body. */
export function serviceMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail']) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
    if (Array.isArray(value) && value.length) return value.map(String).join('; ');
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { message?: unknown }).message === 'string'
    ) {
      return (value as { message: string }).message;
    }
  }
  return undefined;
}

/** An ApiError's details, to make another error of the same answer. */
export function errorDetails(error: ApiError) {
  return {
    status: error.status,
    method: error.method,
    path: error.path,
    baseUrl: error.baseUrl,
    operation: error.operation,
    attempts: error.attempts,
    serviceMessage: error.serviceMessage,
    body: error.body,
    headers: error.headers,
    requestId: error.requestId,
  };
}
