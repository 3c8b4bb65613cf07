/**
 * An operation is one endpoint of the contract, described as data. The SDK function, the n8n
 * node and the emulator's route are all built from the same object, so an endpoint's path,
 * field names and rules are written once.
 */

// Its jobs live beside it: its shape (operation-types), building a request (operation-request),
// checking input and call options (operation-input), checking an answer (operation-response) and
// running it on a client (run-operation). This file declares operations.
import type * as z from 'zod/v4/core';
import { checkPresentation } from './metadata.js';
import { fieldsIn } from './operation-request.js';
import type { FieldLocation, Operation } from './operation-types.js';

export { assertClient, resolveCallOptions, validateOperationInput } from './operation-input.js';
export {
  type BuiltRequest,
  buildRequest,
  fieldsIn,
  inputFromRequest,
  matchPath,
} from './operation-request.js';
export type {
  CallOptions,
  FieldLocation,
  FieldMapping,
  Operation,
  OperationInput,
  OperationOutput,
} from './operation-types.js';
export { runOperation, sendOperation } from './run-operation.js';

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
