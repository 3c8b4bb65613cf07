import type * as z from 'zod/v4/core';
import {
  type ErrorDetails,
  ResponseValidationError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
import { UNSURE, type ValidationPaths, validationPaths } from './speed/index.js';
import { safeParse } from './zod.js';

/** The issues of a zod error as `{ path, message }`, the path dotted (`addresses.3`). */
export function issuesOf(error: z.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issueMessage(issue),
  }));
}

/**
 * What one zod issue says, as the SDK and the emulator word it: zod's own message, but unknown
 * keys listed by name (zod's message for them does not say which field they were found in).
 */
export function issueMessage(issue: z.$ZodIssue): string {
  return issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
}

/**
 * Parses input with a schema; a failure is a `ValidationError` that names every bad field. The
 * usual input of an object schema is parsed as zod would, without zod's allocations (see
 * speed/quick-input.ts; `paths` says whether, and defaults to the shortcuts);
 * anything else, every mistake among it, is zod's to parse and to word.
 */
export function validateInput<S extends z.$ZodType>(
  schema: S,
  input: unknown,
  details: ErrorDetails = {},
  paths: ValidationPaths = validationPaths(true),
): z.output<S> {
  const quick = paths.quickInput(schema, shapeOf(schema), input ?? {});
  if (quick !== UNSURE) return quick as z.output<S>;
  const parsed = safeParse(schema, input ?? {});
  if (!parsed.success) throw new ValidationError(issuesOf(parsed.error), details);
  return parsed.data;
}

/**
 * Parses a response body; only a broken required field (or a wrong type) is an error. A body
 * that passes unchanged (the usual case) is returned as it is, without zod's copy, when `paths`
 * (default: the shortcuts) say so. `details` may be a function: it is called only to build the error.
 */
export function validateResponse<S extends z.$ZodType>(
  schema: S,
  body: unknown,
  details: ErrorDetails | (() => ErrorDetails) = {},
  paths: ValidationPaths = validationPaths(true),
): z.output<S> {
  if (paths.passesUnchanged(schema, body)) return body as z.output<S>;
  const parsed = safeParse(schema, body);
  if (!parsed.success) {
    throw new ResponseValidationError(
      issuesOf(parsed.error),
      typeof details === 'function' ? details() : details,
    );
  }
  return parsed.data;
}

/**
 * Masks the API key in a `ValidationError` that echoes an input value (`unknown chain "<value>"`,
 * `did you mean "<value>"?`): a key passed by mistake where a chain or an id goes must not be shown.
 * Any other error is returned as it is.
 */
export function maskKeyInValidationError(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof ValidationError)) return error;
  const writable = error as { -readonly [K in keyof ValidationError]: ValidationError[K] };
  writable.issues = error.issues.map((issue) => ({
    path: redact(issue.path),
    message: redact(issue.message),
  }));
  writable.message = redact(error.message);
  if (error.stack) writable.stack = redact(error.stack);
  return error;
}

const NO_SHAPE = Object.freeze({});

/** An object schema's fields (every one of them accepted as input), or none. */
function shapeOf(schema: z.$ZodType): object {
  return (schema as unknown as { _zod: { def: { shape?: object } } })._zod.def.shape ?? NO_SHAPE;
}
