/**
 * Which shortcuts beside zod are on, in one place. Each shortcut gives zod's answer without
 * zod's work for the usual value, and leaves every other value to zod (its property test holds
 * it to zod):
 * - quick input (quick-input.ts): an operation's usual input parsed without zod's allocations;
 * - unchanged (unchanged.ts): an answer that zod would return as it is, used as it is;
 * - compiled field checks (compile-fields.ts): unchanged's object fields read by code made per
 *   shape, where the runtime may make code from text (refused in workerd inside a request and
 *   under a strict Content-Security-Policy: found out at the first refusal, then the loop).
 *
 * A client chooses at creation (`fastValidation`, and whether its runtime brings a field
 * compiler) and carries its choice to where its operations validate (`validationOf`); nothing is
 * switched by importing a module.
 */
import type * as z from 'zod/v4/core';
import { createQuickInput, UNSURE } from './quick-input.js';
import { createUnchangedChecks, type FieldCompiler } from './unchanged.js';

export { UNSURE } from './quick-input.js';
export type { FieldCompiler } from './unchanged.js';

/** How a client validates inputs and answers: with the shortcuts or by zod alone, same answers. */
export interface ValidationPaths {
  /** Whether the shortcuts are on (the `fastValidation` option). */
  readonly fast: boolean;
  /** What zod would make of an object input, or `UNSURE` (then zod parses it). */
  quickInput(schema: z.$ZodType, known: object, input: unknown): Record<string, unknown> | typeof UNSURE;
  /** True when zod would accept `value` and return it as it is: then it is used as it is. */
  passesUnchanged(schema: z.$ZodType, value: unknown): boolean;
}

/** zod for everything (`fastValidation: false`). */
const ZOD_ONLY: ValidationPaths = Object.freeze({
  fast: false,
  quickInput: () => UNSURE,
  passesUnchanged: () => false,
});

function shortcuts(compiler: FieldCompiler | undefined): ValidationPaths {
  const checks = createUnchangedChecks(compiler);
  return Object.freeze({
    fast: true,
    quickInput: createQuickInput(checks),
    passesUnchanged: checks.passesUnchanged,
  });
}

// Made on first use and shared by every client that chooses the same: each schema is compiled
// once per way of checking, not once per client (an n8n node makes a client per execution).
let withoutCode: ValidationPaths | undefined;
const withCode = new WeakMap<FieldCompiler, ValidationPaths>();

/**
 * The paths a client chose: zod alone when `fast` is false; else the shortcuts, with the
 * object field checks made by `compiler` where the runtime gives one (see compile-fields.ts).
 */
export function validationPaths(fast: boolean, compiler?: FieldCompiler): ValidationPaths {
  if (!fast) return ZOD_ONLY;
  if (compiler === undefined) {
    withoutCode ??= shortcuts(undefined);
    return withoutCode;
  }
  let paths = withCode.get(compiler);
  if (paths === undefined) {
    paths = shortcuts(compiler);
    withCode.set(compiler, paths);
  }
  return paths;
}

/** Where a client of `createClientWith` keeps its paths. Not public. */
export const VALIDATION = Symbol('blockwire.validation');

/**
 * The paths of a client: its own, or, for a client of one's own (`{ request, redact }`), the
 * shortcuts without code made from text, as the operation layer alone has them.
 */
export function validationOf(client: object): ValidationPaths {
  return (client as { [VALIDATION]?: ValidationPaths })[VALIDATION] ?? validationPaths(true);
}
