import { type ApiError, apiErrorFor, type ErrorDetails } from './errors.js';
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
  return apiErrorFor({
    ...details,
    status: response.status,
    body,
    serviceMessage: serviceMessageOf(body),
    retryAfterMs,
  });
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
  };
}
