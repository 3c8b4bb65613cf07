import type * as z from 'zod/v4/core';
import type { Client } from './client-types.js';
import { ValidationError } from './errors.js';
import {
  assertClient,
  type CallOptions,
  type Operation,
  resolveCallOptions,
  sendOperation,
  validateOperationInput,
} from './operation.js';
import { walkPages } from './paging.js';
import { maskKeyInValidationError, validateInput } from './validation.js';

export interface IterateOptions extends CallOptions {
  /** Stop after this many pages. Default 10 000. */
  maxPages?: number;
}

/**
 * Every item of a paged operation's list, page after page (see `walkPages` for when it stops),
 * fetching a page only when the previous one is consumed. The client, the input and the options
 * are checked at once: a mistake throws before any request, naming `caller` (the iterator).
 */
export function iterateOperation<TItem>(
  client: Client,
  operation: Operation,
  input: Record<string, unknown>,
  options: IterateOptions | undefined,
  caller: string,
): AsyncGenerator<TItem, void, undefined> {
  const paging = operation.paging;
  if (!paging) throw new Error(`${operation.id} has no paging: it cannot be iterated`);
  assertClient(client, caller);
  const maxPages = maxPagesOf(options, caller);
  const { signal } = resolveCallOptions(withoutMaxPages(options), caller);
  let values: Record<string, unknown>;
  try {
    values = validateOperationInput(operation, input);
  } catch (error) {
    throw maskKeyInValidationError(error, client.redact);
  }
  return walkPages<TItem>({
    paging,
    input: values,
    maxPages,
    fetchPage: (page) => sendOperation(client, operation, page, signal),
  });
}

/**
 * An SDK iterator over a paged operation: `input` is what the iterator takes (the list's input
 * without its page or cursor), checked before any request and named `name` in errors.
 */
export function defineIterator<TItem, TInput extends z.$ZodType>(
  operation: Operation,
  input: TInput,
  name: string,
): (
  client: Client,
  input: z.input<TInput>,
  options?: IterateOptions,
) => AsyncGenerator<TItem, void, undefined> {
  return (client, values, options) =>
    iterateOperation<TItem>(
      client,
      operation,
      validateInput(input, values, { operation: name }) as Record<string, unknown>,
      options,
      name,
    );
}

function maxPagesOf(options: unknown, caller: string): number | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const { maxPages } = options as IterateOptions;
  if (maxPages === undefined || (Number.isInteger(maxPages) && maxPages >= 1)) return maxPages;
  throw new ValidationError([{ path: 'options.maxPages', message: 'must be an integer >= 1' }], {
    subject: `options of ${caller}`,
    operation: caller,
  });
}

/** The options as call options, for their own check (which refuses keys it does not know). */
function withoutMaxPages(options: unknown): unknown {
  if (typeof options !== 'object' || options === null || !('maxPages' in options)) return options;
  const { maxPages: _, ...callOptions } = options as IterateOptions;
  return callOptions;
}
