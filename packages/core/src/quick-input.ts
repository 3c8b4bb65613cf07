/**
 * An operation's input as zod would parse it, worked out without zod for the usual call: an
 * object of the operation's fields whose values pass their schemas unchanged (see unchanged.ts),
 * or pass and are then transformed (`evmChain`: `'eth'` → `'0x1'`). Anything else — a field
 * left to zod, any failure — is `UNSURE`, and zod parses the input as before, so every error
 * and its message is zod's. A property test holds it to zod (quick-input.test.ts).
 *
 * An input the quick path gives up on is read again by zod: a field's transform (a pure lookup
 * in the SDK's schemas) or an input's getter may then run twice.
 */
import type * as z from 'zod/v4/core';
import { PASSES, unchangedCheck } from './unchanged.js';

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

/** Per schema, for the list of names it was compiled with. */
const compiled = new WeakMap<object, { known: object; parse: Parse | undefined }>();

/**
 * What `schema.safeParse(input).data` would be, for a strict object schema of plain fields, or
 * `UNSURE`. `known` lists the names the caller accepts (an operation's fields): any other key is
 * `UNSURE` too.
 */
export function quickInput(
  schema: z.$ZodType,
  known: object,
  input: unknown,
): Record<string, unknown> | typeof UNSURE {
  let entry = compiled.get(schema);
  if (entry === undefined || entry.known !== known) {
    entry = { known, parse: compileObject(schema, known) };
    compiled.set(schema, entry);
  }
  return entry.parse === undefined ? UNSURE : entry.parse(input);
}

function compileObject(schema: z.$ZodType, known: object): Parse | undefined {
  const { def } = internalsOf(schema);
  // Strict objects only (unknown keys are an error): a plain or loose one keeps or drops them.
  if (def.type !== 'object' || (def.checks?.length ?? 0) > 0 || !def.catchall) return undefined;
  if (internalsOf(def.catchall).def.type !== 'never') return undefined;
  const entries = Object.entries(def.shape ?? {});
  if (entries.some(([key]) => key === '__proto__' || !Object.hasOwn(known, key))) return undefined;
  const keys = entries.map(([key]) => key);
  const fields = entries.map(([, field]) => compileField(field));
  // Left out: nothing in the output. Given as undefined: `key: undefined` (zod keeps the key).
  const optional = entries.map(([, field]) => {
    const internals = internalsOf(field);
    return (
      internals.def.type === 'optional' && internals.optin === 'optional' && internals.optout === 'optional'
    );
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
function compileField(schema: z.$ZodType): Field | undefined {
  const { def } = internalsOf(schema);
  if (def.type === 'optional' && internalsOf(def.innerType!).optin === undefined) {
    return compileField(def.innerType!);
  }
  // A value that passes as it is; then a transform of it, which must add no issue.
  if (def.type === 'pipe' && (def.checks?.length ?? 0) === 0 && def.in && def.out) {
    const out = internalsOf(def.out).def;
    const first = compileField(def.in);
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
  const check = unchangedCheck(schema);
  return (value) => (check(value) === PASSES ? value : UNSURE);
}

/** `ctx.addIssue` of a transform: any issue sends the input to zod, which reports it. */
function addIssueTo(this: TransformPayload, issue: unknown): void {
  this.issues.push(issue);
}
