import {
  type Client,
  type IterateOptions,
  iterateOperation,
  nonNegativeInteger,
  validateInput,
  withMeta,
} from '@blockwire/core/operations';
import * as z from 'zod/v4';
import {
  getEntitiesByCategoryEndpoint,
  getEntitiesByCategoryInput,
} from './operations/getEntitiesByCategory.js';
import type { EntitySummary } from './schemas.js';

export type { IterateOptions } from '@blockwire/core/operations';

export const iterateEntitiesByCategoryInput = getEntitiesByCategoryInput
  .pick({ categoryId: true, limit: true })
  .extend({
    startPage: z.optional(
      withMeta(nonNegativeInteger, {
        description: 'The page to start from; left out, the service’s first page.',
      }),
    ),
  });
export type IterateEntitiesByCategoryInput = z.input<typeof iterateEntitiesByCategoryInput>;

/**
 * Every entity of a category, page after page, fetching a page only when the previous one is
 * consumed. The next page is the page number the service reports plus one (counting from 0 when
 * it reports none). It stops at an empty page, at a page shorter than the page size, or at a page
 * that brings no entity not yielded before (a service that ignores `page` answers the same page
 * again), so a page is never yielded twice; and after `maxPages` pages.
 *
 * The input is checked at once: a bad input throws a `ValidationError` before any request.
 */
export function iterateEntitiesByCategory(
  client: Client,
  input: IterateEntitiesByCategoryInput,
  options?: IterateOptions,
): AsyncGenerator<EntitySummary, void, undefined> {
  const caller = 'iterateEntitiesByCategory';
  const { startPage, ...rest } = validateInput(iterateEntitiesByCategoryInput, input, { operation: caller });
  return iterateOperation<EntitySummary>(
    client,
    getEntitiesByCategoryEndpoint.operation,
    { ...rest, page: startPage },
    options,
    caller,
  );
}
