/**
 * An operation is one endpoint of the contract, described as data. The SDK function, the n8n
 * node and the emulator's route are all built from the same object, so an endpoint's path,
 * field names and rules are written once.
 */
import type * as z from 'zod/v4/core';
import type { AttemptSlots } from './adaptive-concurrency.js';
import type { Api, CallOptions, Client, ClientRequest, ClientResponse, HttpMethod } from './client-types.js';
import { ValidationError, type ValidationIssue } from './errors.js';
import { unknownKeyIssues } from './known-keys.js';
import { checkPresentation, type Presentation } from './metadata.js';
import { hasLoneSurrogate, isPlainSegment, pathSegmentIssue } from './path-segment.js';
import type { QueryValue } from './query.js';
import { type MappingClient, PLAIN_PATH, REQUEST_MAPPED } from './request-mapped.js';
import { didYouMean } from './suggest.js';
import { UNSURE, type ValidationPaths, validationOf, validationPaths } from './speed/index.js';
import { issuesOf, maskKeyInValidationError, validateResponse } from './validation.js';
import { safeParse } from './zod.js';

export type FieldLocation = 'path' | 'query' | 'body';

/** Where an input field goes, and under which name when the contract spells it differently. */
export interface FieldMapping {
  in: FieldLocation;
  /** The name on the wire, e.g. `to_block` for `toBlock`. Default: the field's own name. */
  as?: string;
}

export interface Operation<I extends z.$ZodType = z.$ZodType, R extends z.$ZodType = z.$ZodType>
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

export type { CallOptions };

/**
 * Declares an operation, checking that the path's placeholders and the `path` fields agree and
 * that it presents itself fully (see `checkPresentation`): a mistake fails at load, not in a UI.
 * Its `id` keeps its literal type, so a table keyed by operation (the emulator's handlers) can be
 * checked for a missing entry by the compiler.
 */
export function defineOperation<I extends z.$ZodType, R extends z.$ZodType, const Id extends string>(
  operation: Operation<I, R> & { id: Id },
): Operation<I, R> & { readonly id: Id } {
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

/**
 * What `buildRequest` needs of an operation, worked out once: its fields by location and its path
 * template cut at the placeholders. No field list is rebuilt per call.
 */
interface RequestPlan {
  placements: readonly FieldPlacement[];
  path: readonly FieldPlacement[];
  query: readonly FieldPlacement[];
  body: readonly FieldPlacement[];
  /** The template's text around the placeholders: `texts[0] {path[0]} texts[1] …`, by placeholder order. */
  texts: readonly string[];
  /** The path fields in the order their placeholders appear. */
  slots: readonly FieldPlacement[];
  /** Path fields with no placeholder (only in a template `defineOperation` would refuse). */
  unslotted: readonly FieldPlacement[];
  /**
   * Whether every path `buildRequest` makes is plain (see `isPlainPath`): the template's text is
   * plain and has no dot at all, and each value is a plain or encoded segment that is never a dot
   * segment (`pathSegmentIssue` refuses those).
   */
  plainPaths: boolean;
}

const plans = new WeakMap<Operation, RequestPlan>();

function planOf(operation: Operation): RequestPlan {
  let plan = plans.get(operation);
  if (!plan) {
    plan = makePlan(operation);
    plans.set(operation, plan);
  }
  return plan;
}

function makePlan(operation: Operation): RequestPlan {
  const placements = Object.entries(operation.fields as Record<string, FieldLocation | FieldMapping>).map(
    ([field, mapping]): FieldPlacement =>
      typeof mapping === 'string'
        ? { field, in: mapping, wire: field }
        : { field, in: mapping.in, wire: mapping.as ?? field },
  );
  const at = (location: FieldLocation) => placements.filter((placement) => placement.in === location);
  const path = at('path');
  const texts: string[] = [];
  const slots: FieldPlacement[] = [];
  let rest: string = operation.path;
  for (const match of operation.path.matchAll(/\{(\w+)\}/g)) {
    const slot = path.find((placement) => placement.wire === match[1]);
    if (!slot) continue; // defineOperation refuses such a template; an undefined operation keeps its text
    const start = rest.indexOf(match[0]);
    texts.push(rest.slice(0, start));
    slots.push(slot);
    rest = rest.slice(start + match[0].length);
  }
  texts.push(rest);
  const unslotted = path.filter((placement) => !slots.includes(placement));
  const plainPaths =
    unslotted.length === 0 && texts[0]!.startsWith('/') && texts.every((text) => PLAIN_TEXT.test(text));
  return { placements, path, query: at('query'), body: at('body'), texts, slots, unslotted, plainPaths };
}

/** Template text that cannot make a path less than plain: no dot, no percent sign. */
const PLAIN_TEXT = /^[\w\-~!$&'()*+,;=:@/]*$/;

/** Every field of an operation with where it goes and its wire name. */
export function fieldsIn(operation: Operation, location?: FieldLocation): FieldPlacement[] {
  const plan = planOf(operation);
  return (location === undefined ? plan.placements : plan[location]).map((placement) => ({ ...placement }));
}

export interface BuiltRequest {
  path: string;
  query: Record<string, QueryValue>;
  body: Record<string, unknown> | undefined;
}

/**
 * Turns validated input into the path, query and body the contract asks for. A value that could
 * change which route is called (`..`, `a/b`, `%2e%2e`…) or that cannot be sent as text (a lone
 * surrogate) is a `ValidationError` naming its field: nothing is sent.
 */
export function buildRequest(operation: Operation, values: Record<string, unknown>): BuiltRequest {
  const plan = planOf(operation);
  // No closure for the issues: it would be made on every call, with or without one.
  let issues: ValidationIssue[] | undefined;
  const { slots, texts } = plan;
  let path = texts[0]!;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    const text = String(values[slot.field]);
    // The usual value (an address, an id) needs neither a closer look nor encoding.
    if (isPlainSegment(text)) {
      path += `${text}${texts[i + 1]}`;
      continue;
    }
    const issue = pathSegmentIssue(text);
    if (issue) issues = withIssue(issues, slot.field, issue);
    else path += `${encodeURIComponent(text)}${texts[i + 1]}`;
  }
  // A path field without a placeholder (a template defineOperation would refuse) is still checked.
  if (plan.unslotted.length > 0) {
    for (const placement of plan.unslotted) {
      const issue = pathSegmentIssue(String(values[placement.field]));
      if (issue) issues = withIssue(issues, placement.field, issue);
    }
  }
  const query: Record<string, QueryValue> = {};
  for (const placement of plan.query) {
    const value = values[placement.field];
    if (value === undefined) continue;
    const broken = loneSurrogateAt(value, placement.field);
    if (broken !== undefined) issues = withIssue(issues, broken, LONE_SURROGATE_MESSAGE);
    else query[placement.wire] = value as QueryValue;
  }
  let body: Record<string, unknown> | undefined;
  if (plan.body.length > 0) {
    body = {};
    for (const placement of plan.body) {
      const value = values[placement.field];
      if (value === undefined) continue;
      const broken = loneSurrogateAt(value, placement.field);
      if (broken !== undefined) issues = withIssue(issues, broken, LONE_SURROGATE_MESSAGE);
      else body[placement.wire] = value;
    }
  }
  if (issues) throw new ValidationError(sortedByField(issues, plan), { operation: operation.id });
  return { path, query, body };
}

function withIssue(issues: ValidationIssue[] | undefined, path: string, message: string): ValidationIssue[] {
  const list = issues ?? [];
  list.push({ path, message });
  return list;
}

/** Issues in the order of the operation's fields, as one pass over them would have found them. */
function sortedByField(issues: ValidationIssue[], plan: RequestPlan): ValidationIssue[] {
  const order = (path: string) =>
    plan.placements.findIndex((p) => path === p.field || path.startsWith(`${p.field}.`));
  return issues.sort((a, b) => order(a.path) - order(b.path));
}

const LONE_SURROGATE_MESSAGE = 'must not contain a lone surrogate (half of a UTF-16 pair)';

/** Where a string with a lone surrogate sits inside `value` (it would be sent as U+FFFD), if anywhere. */
function loneSurrogateAt(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? at : undefined;
  if (typeof value !== 'object' || value === null || depth > 32) return undefined;
  if (Array.isArray(value)) {
    // A list of strings (100 addresses a chunk) is read without an entry or a path made per item.
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') {
        if (hasLoneSurrogate(item)) return `${at}.${i}`;
        continue;
      }
      const found = loneSurrogateAt(item, `${at}.${i}`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = loneSurrogateAt(item, `${at}.${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
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
export function runOperation<I extends z.$ZodType, R extends z.$ZodType>(
  client: Client,
  operation: Operation<I, R>,
  input: z.input<I>,
  options?: CallOptions,
): Promise<z.output<R>> {
  // Not an async function: its promise would wrap sendOperation's, a promise and a few
  // microtask turns more on every call. A mistake still rejects, never throws.
  let signal: AbortSignal | undefined;
  let values: Record<string, unknown>;
  try {
    assertClient(client, operation.id);
    // Left out (the usual case): nothing to check, and no empty options object made.
    if (options !== undefined) signal = resolveCallOptions(options, operation.id).signal;
    try {
      values = validateOperationInput(operation, input, validationOf(client));
    } catch (error) {
      throw maskKeyInValidationError(error, client.redact);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return sendOperation(client, operation, values, signal);
}

/**
 * `runOperation` for input already validated with the operation's schema (a call split into
 * chunks validates the whole input once): builds, sends and validates the response.
 */
export function sendOperation<R extends z.$ZodType>(
  client: Client,
  operation: Operation<z.$ZodType, R>,
  values: Record<string, unknown>,
  signal?: AbortSignal,
  attemptSlots?: AttemptSlots,
): Promise<z.output<R>> {
  // Not an async function: its frame would be kept for as long as the request is in flight.
  // A mistake still rejects, never throws.
  let built: BuiltRequest;
  try {
    built = buildRequest(operation, values);
  } catch (error) {
    return Promise.reject(maskKeyInValidationError(error, client.redact));
  }
  // A client of createClient checks the answer where its attempt settles: one promise for the call.
  const send = (client as Partial<MappingClient>)[REQUEST_MAPPED];
  if (typeof send === 'function') {
    try {
      return send.call<Client, [OperationRequest, typeof checkedAnswer], Promise<unknown>>(
        client,
        new OperationRequest(client, operation, built, signal, attemptSlots),
        checkedAnswer,
      ) as Promise<z.output<R>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }
  let sent: Promise<ClientResponse>;
  try {
    sent = Promise.resolve(
      client.request({
        api: operation.api,
        method: operation.method,
        path: built.path,
        query: built.query,
        body: built.body,
        idempotent: operation.idempotent,
        signal,
        operation: operation.id,
        attemptSlots,
      }),
    );
  } catch (error) {
    return Promise.reject(error);
  }
  const { path } = built;
  return sent.then((response) => checkedData(client, operation, path, response));
}

/** An operation's request as sent to a client of createClient: it also says whose answer it awaits. */
class OperationRequest implements ClientRequest {
  readonly api: Api;
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Record<string, QueryValue>;
  readonly body: Record<string, unknown> | undefined;
  readonly idempotent: boolean;
  readonly signal: AbortSignal | undefined;
  readonly operation: string;
  readonly attemptSlots: AttemptSlots | undefined;
  readonly client: Client;
  readonly definition: Operation;
  readonly [PLAIN_PATH]: boolean;

  constructor(
    client: Client,
    operation: Operation,
    built: BuiltRequest,
    signal: AbortSignal | undefined,
    attemptSlots: AttemptSlots | undefined,
  ) {
    this.api = operation.api;
    this.method = operation.method;
    this.path = built.path;
    this.query = built.query;
    this.body = built.body;
    this.idempotent = operation.idempotent;
    this.signal = signal;
    this.operation = operation.id;
    this.attemptSlots = attemptSlots;
    this.client = client;
    this.definition = operation;
    this[PLAIN_PATH] = planOf(operation).plainPaths;
  }
}

function checkedAnswer(response: ClientResponse, req: OperationRequest): unknown {
  return checkedData(req.client, req.definition, req.path, response);
}

/** The data of a 2xx answer, validated with the operation's response schema. */
function checkedData<R extends z.$ZodType>(
  client: Client,
  operation: Operation<z.$ZodType, R>,
  path: string,
  response: ClientResponse,
): z.output<R> {
  // The usual answer passes as it is: the closure for an error's details is not even made.
  const paths = validationOf(client);
  if (paths.passesUnchanged(operation.response, response.data)) return response.data as z.output<R>;
  return validatedData(client, operation, path, response, paths);
}

function validatedData<R extends z.$ZodType>(
  client: Client,
  operation: Operation<z.$ZodType, R>,
  path: string,
  response: ClientResponse,
  paths: ValidationPaths,
): z.output<R> {
  // Only an error says where the call went: worked out then, not on every call.
  return validateResponse(
    operation.response,
    response.data,
    () => ({
      operation: operation.id,
      method: operation.method,
      path: client.redact(path),
      baseUrl: shownBaseUrl(client, operation.api),
      attempts: response.attempts,
      // A 2xx whose body cannot be read: a create happened, but what it made is not known.
      outcomeUnknown: !operation.idempotent,
    }),
    paths,
  );
}

/** The base URL an operation is sent to, key masked (a client of one's own may not say). */
function shownBaseUrl(client: Client, api: Api): string | undefined {
  const baseUrl = (client.baseUrls as Partial<Record<Api, string>> | undefined)?.[api];
  return baseUrl === undefined ? undefined : client.redact(baseUrl);
}

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
