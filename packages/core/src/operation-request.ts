/** Building an operation's request from validated input: its path, query and body, and back (the emulator's routes). */
import { ValidationError, type ValidationIssue } from './errors.js';
import type { FieldLocation, FieldMapping, Operation } from './operation-types.js';
import { hasLoneSurrogate, isPlainSegment, pathSegmentIssue } from './path-segment.js';
import type { QueryValue } from './query.js';

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

export function planOf(operation: Operation): RequestPlan {
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
