/**
 * Every failure the page can see, as one plain sentence and an HTTP status: never a stack trace,
 * never a secret. The SDK's typed errors say what went wrong; this says it to a person.
 */
import {
  ApiError,
  AuthenticationError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '@blockwire/core';
import { sentence, validationProblem } from './sentences.js';

/** The simulator refused a command (its message names the field). */
export class SimulatorError extends Error {
  override name = 'SimulatorError';
}

export { FIELD_NAMES, fieldName, issueSentence, sentence } from './sentences.js';

export interface Problem {
  status: number;
  /** One or more sentences for the page. */
  message: string;
  /** The input field at fault, when one is (the page highlights it). */
  field?: string;
}

/** Thrown by the demo's own routes: the message is already a sentence for the page. */
export class DemoError extends Error {
  override name = 'DemoError';
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The page's view of any error. `subject` names what was asked for (e.g. "this token on eth"),
 * to make a 404 specific.
 */
export function toProblem(error: unknown, subject?: string): Problem {
  if (error instanceof DemoError) {
    return { status: error.status, message: error.message, ...(error.field ? { field: error.field } : {}) };
  }
  if (error instanceof ValidationError) return { status: 400, ...validationProblem(error) };
  if (error instanceof SimulatorError) return { status: 400, message: sentence(error.message) };
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterMs === undefined ? '' : ` Try again in ${seconds(error.retryAfterMs)} s.`;
    return {
      status: 429,
      message: `The service is rate limiting requests and still refused after the client’s retries.${wait || ' Try again in a moment.'}`,
    };
  }
  if (error instanceof NotFoundError) {
    const said = error.serviceMessage ? ` The service said: ${sentence(error.serviceMessage)}` : '';
    return { status: 404, message: `Nothing found for ${subject ?? 'this request'}.${said}` };
  }
  if (error instanceof AuthenticationError) {
    return { status: 502, message: 'The service did not accept the API key. Check BLOCKWIRE_API_KEY.' };
  }
  if (error instanceof PermissionError) {
    return { status: 502, message: 'The API key is not allowed to do this (the service answered 403).' };
  }
  if (error instanceof ServerError) {
    return {
      status: 502,
      message: `The service failed (HTTP ${error.status}) even after retries. Try again.`,
    };
  }
  if (error instanceof ApiError) {
    const said = error.serviceMessage ? `: ${sentence(error.serviceMessage)}` : '.';
    return { status: 502, message: `The service refused the request (HTTP ${error.status})${said}` };
  }
  if (error instanceof TimeoutError) {
    return { status: 504, message: `The service did not answer within ${seconds(error.timeoutMs)} s.` };
  }
  if (error instanceof NetworkError) {
    return { status: 502, message: 'The service could not be reached. Check the network and the base URLs.' };
  }
  if (error instanceof JsonRpcError) {
    return { status: 502, message: `The node refused the call: ${sentence(error.message)}` };
  }
  if (error instanceof ResponseValidationError) {
    return { status: 502, message: 'The service answered with data that breaks its contract.' };
  }
  return { status: 500, message: 'Something went wrong in the demo server; its terminal has the details.' };
}
