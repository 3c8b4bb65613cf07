/** Checking an operation's input (and call options) before anything is sent. */
import type * as z from 'zod/v4/core';
import type { CallOptions, Client } from './client-types.js';
import { ValidationError } from './errors.js';
import { unknownKeyIssues } from './known-keys.js';
import { fieldsIn } from './operation-request.js';
import type { Operation } from './operation-types.js';
import { UNSURE, type ValidationPaths, validationPaths } from './speed/index.js';
import { didYouMean } from './suggest.js';
import { issuesOf } from './validation.js';
import { safeParse } from './zod.js';

/**
 * Validates an operation's input with its schema. A field the operation does not have is an
 * error whatever the schema says, with a hint: the SDK name of a wire name (`to_block` → `toBlock`),
 * or the nearest field. `paths`: the client's (see `validationOf`), by default the shortcuts.
 */
export function validateOperationInput(
  operation: Operation,
  input: unknown,
  paths: ValidationPaths = validationPaths(true),
): Record<string, unknown> {
  // The usual input, parsed as zod would without zod; anything else (every mistake) goes to zod.
  const quick = paths.quickInput(operation.input, operation.fields, input ?? {});
  if (quick !== UNSURE) return quick;
  const parsed = safeParse(operation.input, input ?? {});
  const unknown = unknownInputFields(operation, input);
  if (parsed.success && unknown.length === 0) return parsed.data as Record<string, unknown>;
  const issues = parsed.success
    ? []
    : issuesOf(parsed.error).filter((_, i) => !isTopLevelUnknownKeys(parsed.error.issues[i]!));
  if (unknown.length > 0) {
    issues.unshift({
      path: '',
      message: `unknown field(s) ${unknown.map((key) => `${key}${unknownFieldHint(operation, key)}`).join(', ')}`,
    });
  }
  throw new ValidationError(issues, { operation: operation.id });
}

/** The input's fields the operation does not have (a non-strict schema would let them through). */
function unknownInputFields(operation: Operation, input: unknown): readonly string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return NO_FIELDS;
  let unknown: string[] | undefined;
  for (const key in input) {
    if (!Object.hasOwn(input, key) || Object.hasOwn(operation.fields, key)) continue;
    unknown ??= [];
    unknown.push(key);
  }
  return unknown ?? NO_FIELDS;
}
const NO_FIELDS: readonly string[] = Object.freeze([]);

function isTopLevelUnknownKeys(issue: z.$ZodIssue): boolean {
  return issue.code === 'unrecognized_keys' && issue.path.length === 0;
}

function unknownFieldHint(operation: Operation, key: string): string {
  const placements = fieldsIn(operation);
  const byWireName = placements.find((placement) => placement.wire === key && placement.field !== key);
  if (byWireName) return ` (did you mean "${byWireName.field}"? "${key}" is its name on the wire)`;
  return didYouMean(
    key,
    placements.map((placement) => placement.field),
  );
}

/**
 * Throws unless `value` is a client from `createClient()`: the mistake of calling `fn(input)`.
 * `rest` names what follows the client in the call, for the message.
 */
export function assertClient(value: unknown, caller: string, rest = 'input'): asserts value is Client {
  if (isClient(value)) return;
  throw new ValidationError(
    [
      {
        path: 'client',
        message: `must be a client from createClient(), passed first: ${caller}(client, ${rest})`,
      },
    ],
    { subject: `arguments of ${caller}`, operation: caller },
  );
}

function isClient(value: unknown): value is Client {
  if (typeof value !== 'object' || value === null) return false;
  const { request, redact } = value as Partial<Client>;
  return typeof request === 'function' && typeof redact === 'function';
}

const CALL_OPTION_NAMES = ['signal'] as const;

/** Options left out: one frozen object, not one a call. */
const NO_CALL_OPTIONS: CallOptions = Object.freeze({});

/** Checks the per-call options argument: left out, or `{ signal }` with an AbortSignal. */
export function resolveCallOptions(value: unknown, caller: string): CallOptions {
  if (value === undefined) return NO_CALL_OPTIONS;
  const fail = (path: string, message: string) =>
    new ValidationError([{ path, message }], { subject: `call options of ${caller}`, operation: caller });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail('options', 'must be an object such as { signal }, or left out');
  }
  const [unknown] = unknownKeyIssues(value, {
    kind: 'call option',
    names: CALL_OPTION_NAMES,
    pathPrefix: 'options.',
    note: 'timeouts and retries are client options',
  });
  if (unknown) throw fail(unknown.path, unknown.message);
  const { signal } = value as CallOptions;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw fail('options.signal', 'must be an AbortSignal, e.g. AbortSignal.timeout(5000)');
  }
  return { signal };
}

function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== 'object' || value === null) return false;
  const signal = value as Partial<AbortSignal>;
  return typeof signal.aborted === 'boolean' && typeof signal.addEventListener === 'function';
}
