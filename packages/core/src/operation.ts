/**
 * An operation is one endpoint of the contract, described as data. The SDK function, the n8n
 * node and the emulator's route are all built from the same object, so an endpoint's path,
 * field names and rules are written once.
 */
import type { z } from 'zod/v4';
import type { Api, Client, HttpMethod, QueryValue } from './client.js';
import { ValidationError, type ValidationIssue } from './errors.js';
import { checkPresentation, type Presentation } from './metadata.js';
import { validateInput, validateResponse } from './validation.js';

export type FieldLocation = 'path' | 'query' | 'body';

/** Where an input field goes, and under which name when the contract spells it differently. */
export interface FieldMapping {
  in: FieldLocation;
  /** The name on the wire, e.g. `to_block` for `toBlock`. Default: the field's own name. */
  as?: string;
}

export interface Operation<I extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType>
  extends Presentation {
  api: Api;
  method: HttpMethod;
  /** Path template below the interface's base URL, with `{field}` placeholders. */
  path: `/${string}`;
  /** Validates and normalises the input; its output holds wire-ready values. */
  input: I;
  /** Where each input field goes. Every field of the input schema is listed. */
  fields: { [K in keyof z.output<I> & string]-?: FieldLocation | FieldMapping };
  /** Validates the 2xx response; unknown fields pass through. */
  response: R;
  /** Safe to send twice (GET, read-only POST, idempotent write)? Decides what is retried. */
  idempotent: boolean;
}

export type OperationInput<O extends Operation> = z.input<O['input']>;
export type OperationOutput<O extends Operation> = z.output<O['response']>;

export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Declares an operation, checking that the path's placeholders and the `path` fields agree and
 * that it presents itself fully (see `checkPresentation`): a mistake fails at load, not in a UI.
 */
export function defineOperation<I extends z.ZodType, R extends z.ZodType>(
  operation: Operation<I, R>,
): Operation<I, R> {
  checkPresentation(operation, operation.input);
  const placeholders = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
  const pathFields = fieldsIn(operation, 'path')
    .map((f) => f.wire)
    .sort();
  if (placeholders.join() !== pathFields.join()) {
    throw new Error(
      `operation ${operation.id}: path ${operation.path} has {${placeholders.join('},{')}} but its path fields are ${pathFields.join(', ') || 'none'}`,
    );
  }
  return Object.freeze(operation);
}

/**
 * Puts every field of a zod object shape in one place, for operations that send a whole
 * configuration: `fields: { id: 'path', ...fieldsAt(configShape, 'body') }`.
 */
export function fieldsAt<K extends string>(
  shape: Record<K, unknown>,
  location: FieldLocation,
): Record<K, FieldLocation> {
  return Object.fromEntries(Object.keys(shape).map((field) => [field, location])) as Record<K, FieldLocation>;
}

interface FieldPlacement {
  field: string;
  in: FieldLocation;
  wire: string;
}

/** Every field of an operation with where it goes and its wire name. */
export function fieldsIn(operation: Operation, location?: FieldLocation): FieldPlacement[] {
  return Object.entries(operation.fields as Record<string, FieldLocation | FieldMapping>)
    .map(([field, mapping]) =>
      typeof mapping === 'string'
        ? { field, in: mapping, wire: field }
        : { field, in: mapping.in, wire: mapping.as ?? field },
    )
    .filter((placement) => location === undefined || placement.in === location);
}

export interface BuiltRequest {
  path: string;
  query: Record<string, QueryValue>;
  body: Record<string, unknown> | undefined;
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Why a value cannot be one segment of a URL path, if it cannot. Encoding is not enough: a URL
 * parser resolves `.` and `..` before sending (`DELETE .../xpub/..` would delete the stream), some
 * proxies decode `%2F` and `%5C` into separators, and a lone surrogate cannot be encoded at all.
 */
function pathSegmentProblem(value: string): string | undefined {
  if (value === '.' || value === '..') return 'must not be "." or ".." (the URL would lead to another path)';
  if (/[/\\]/.test(value)) return 'must not contain "/" or "\\" (it is one segment of the URL path)';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed text (it holds a lone surrogate)';
  return undefined;
}

/**
 * Turns validated input into the path, query and body the contract asks for. A value that cannot
 * be one path segment is a {@link ValidationError} naming its field: nothing is sent.
 */
export function buildRequest(operation: Operation, values: Record<string, unknown>): BuiltRequest {
  let path: string = operation.path;
  const query: Record<string, QueryValue> = {};
  const bodyFields = fieldsIn(operation, 'body');
  const body: Record<string, unknown> | undefined = bodyFields.length > 0 ? {} : undefined;
  const issues: ValidationIssue[] = [];
  for (const placement of fieldsIn(operation)) {
    const value = values[placement.field];
    if (placement.in === 'path') {
      const segment = String(value);
      const problem = pathSegmentProblem(segment);
      if (problem) issues.push({ path: placement.field, message: problem });
      else path = path.replace(`{${placement.wire}}`, encodeURIComponent(segment));
    } else if (value !== undefined) {
      if (placement.in === 'query') query[placement.wire] = value as QueryValue;
      else body![placement.wire] = value;
    }
  }
  if (issues.length > 0) throw new ValidationError(issues, { operation: operation.id });
  return { path, query, body };
}

/**
 * The reverse of {@link buildRequest}: the raw input object an incoming request carries, to be
 * validated with `operation.input` (the emulator serves each route this way).
 */
export function inputFromRequest(
  operation: Operation,
  request: {
    params: Record<string, string>;
    query: Record<string, string | string[] | undefined>;
    body: unknown;
  },
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const body =
    typeof request.body === 'object' && request.body !== null
      ? (request.body as Record<string, unknown>)
      : {};
  for (const placement of fieldsIn(operation)) {
    const source = placement.in === 'path' ? request.params : placement.in === 'query' ? request.query : body;
    const value = source[placement.wire];
    if (value !== undefined) input[placement.field] = value;
  }
  return input;
}

/** Matches a concrete path against an operation's template; the decoded path parameters, or undefined. */
export function matchPath(operation: Operation, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = operation.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name) {
        names.push(name);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const match = new RegExp(`^${pattern}/?$`).exec(path);
  if (!match) return undefined;
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  } catch {
    return undefined;
  }
}

/** Validates the input, sends the request, and validates the response. */
export async function runOperation<I extends z.ZodType, R extends z.ZodType>(
  client: Client,
  operation: Operation<I, R>,
  input: z.input<I>,
  options: CallOptions = {},
): Promise<z.output<R>> {
  const values = validateInput(operation.input, input, { operation: operation.id }) as Record<
    string,
    unknown
  >;
  const { path, query, body } = buildRequest(operation, values);
  const response = await client.request({
    api: operation.api,
    method: operation.method,
    path,
    query,
    body,
    idempotent: operation.idempotent,
    signal: options.signal,
    operation: operation.id,
  });
  return validateResponse(operation.response, response.data, {
    operation: operation.id,
    method: operation.method,
    path: client.redact(path),
    attempts: response.attempts,
  });
}
