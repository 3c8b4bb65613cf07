/**
 * An input as zod would parse it (an operation's, a JSON-RPC method's arguments), worked out
 * without zod for the usual call: an object of its fields whose values pass their schemas
 * unchanged (see unchanged.ts), or pass and are then transformed (`evmChain`: `'eth'` → `'0x1'`),
 * or are left out and get their default. Anything else — a field left to zod, any failure — is
 * `UNSURE`, and zod parses the input as before, so every error and its message is zod's. A property test holds it to zod (quick-input.test.ts).
 *
 * An input the quick path gives up on is read again by zod: a field's transform (a pure lookup
 * in the SDK's schemas) or an input's getter may then run twice.
 */
import type * as z from 'zod/v4/core';
import { createUnchangedChecks, PASSES, type UnchangedChecks } from './unchanged.js';

export const UNSURE: unique symbol = Symbol('unsure');

interface Internals {
  def: {
    type: string;
    checks?: unknown[];
    shape?: Record<string, z.$ZodType>;
    catchall?: z.$ZodType;
    innerType?: z.$ZodType;
    in?: z.$ZodType;
    out?: z.$ZodType;
    transform?: (value: unknown, payload: TransformPayload) => unknown;
    defaultValue?: unknown;
  };
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
}

interface TransformPayload {
  value: unknown;
  issues: unknown[];
  addIssue(issue: unknown): void;
}

const internalsOf = (schema: z.$ZodType) => (schema as unknown as { _zod: Internals })._zod;

type Field = (value: unknown) => unknown;
type Parse = (input: unknown) => Record<string, unknown> | typeof UNSURE;

export type QuickInput = (
  schema: z.$ZodType,
  known: object,
  input: unknown,
) => Record<string, unknown> | typeof UNSURE;

/**
 * What `schema.safeParse(input).data` would be, for a strict or plain object schema of plain
 * fields, or `UNSURE`, each field that is no transform checked by `checks`. `known` lists the
 * names the caller accepts (an operation's fields): any other key is `UNSURE` too.
 */
export function createQuickInput(checks: UnchangedChecks): QuickInput {
  /** Per schema, for the list of names it was compiled with. */
  const compiled = new WeakMap<object, { known: object; parse: Parse | undefined }>();
  return (schema, known, input) => {
    let entry = compiled.get(schema);
    if (entry === undefined || entry.known !== known) {
      entry = { known, parse: compileObject(schema, known, checks) };
      compiled.set(schema, entry);
    }
    return entry.parse === undefined ? UNSURE : entry.parse(input);
  };
}

let walk: QuickInput | undefined;

/** `createQuickInput` on the checks that make no code from text. */
export function quickInput(
  schema: z.$ZodType,
  known: object,
  input: unknown,
): Record<string, unknown> | typeof UNSURE {
  walk ??= createQuickInput(createUnchangedChecks());
  return walk(schema, known, input);
}

function compileObject(schema: z.$ZodType, known: object, checks: UnchangedChecks): Parse | undefined {
  const { def } = internalsOf(schema);
  if (def.type !== 'object' || (def.checks?.length ?? 0) > 0) return undefined;
  // A strict object (an unknown key is an error) or a plain one (an unknown key is dropped): either
  // way an input with a key it does not list is zod's (and the caller's, which may refuse it). A
  // loose one keeps unknown keys, and is left to zod.
  const catchall = def.catchall && internalsOf(def.catchall).def.type;
  if (catchall !== undefined && catchall !== 'never') return undefined;
  const entries = Object.entries(def.shape ?? {});
  if (entries.some(([key]) => key === '__proto__' || !Object.hasOwn(known, key))) return undefined;
  const keys = entries.map(([key]) => key);
  const fields = entries.map(([, field]) => compileField(field, checks));
  // Left out: nothing in the output. Given as undefined: `key: undefined` (zod keeps the key).
  const optional = entries.map(([, field]) => {
    const internals = internalsOf(field);
    return (
      internals.def.type === 'optional' && internals.optin === 'optional' && internals.optout === 'optional'
    );
  });
  // A default fills in a field left out (zod gives its default value, unparsed).
  const defaults = entries.map(([, field]) => {
    const fieldDef = internalsOf(field).def;
    return fieldDef.type === 'default' ? () => fieldDef.defaultValue : undefined;
  });
  const shape = new Set(keys);
  const count = keys.length;
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return UNSURE;
    const proto = Object.getPrototypeOf(input);
    if (proto !== Object.prototype && proto !== null) return UNSURE;
    const record = input as Record<string, unknown>;
    // zod looks at inherited keys too (`for…in`): any key it would not expect is zod's to report.
    for (const key in record) if (!shape.has(key)) return UNSURE;
    const output: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const key = keys[i]!;
      const value = record[key];
      if (value === undefined) {
        const fill = defaults[i];
        if (fill) {
          output[key] = fill();
          continue;
        }
        if (!optional[i]) return UNSURE;
        if (key in record) output[key] = undefined;
        continue;
      }
      const field = fields[i];
      if (field === undefined) return UNSURE;
      const parsed = field(value);
      if (parsed === UNSURE) return UNSURE;
      output[key] = parsed;
    }
    return output;
  };
}

/** A field's output for a value that is not undefined, or UNSURE; undefined when left to zod. */
function compileField(schema: z.$ZodType, checks: UnchangedChecks): Field | undefined {
  const { def } = internalsOf(schema);
  if (def.type === 'optional' && internalsOf(def.innerType!).optin === undefined) {
    return compileField(def.innerType!, checks);
  }
  // A default's inner schema decides every value but undefined (an output of undefined would be
  // replaced by the default: zod's to work out).
  if (def.type === 'default') {
    const inner = compileField(def.innerType!, checks);
    if (inner === undefined) return undefined;
    return (value) => {
      const output = inner(value);
      return output === undefined ? UNSURE : output;
    };
  }
  // A value that passes as it is; then a transform of it, which must add no issue.
  if (def.type === 'pipe' && (def.checks?.length ?? 0) === 0 && def.in && def.out) {
    const out = internalsOf(def.out).def;
    const first = compileField(def.in, checks);
    const transform = out.transform;
    if (out.type !== 'transform' || first === undefined || typeof transform !== 'function') return undefined;
    return (value) => {
      const passed = first(value);
      if (passed === UNSURE) return UNSURE;
      const payload: TransformPayload = { value: passed, issues: [], addIssue: addIssueTo };
      const output = transform(passed, payload);
      if (payload.issues.length > 0 || output instanceof Promise) return UNSURE;
      return output;
    };
  }
  const check = checks.checkOf(schema);
  return (value) => (check(value) === PASSES ? value : UNSURE);
}

/** `ctx.addIssue` of a transform: any issue sends the input to zod, which reports it. */
function addIssueTo(this: TransformPayload, issue: unknown): void {
  this.issues.push(issue);
}
