import {
  type CallOptions,
  type Client,
  nonNegativeInteger,
  paginate,
  validateInput,
} from '@blockwire/core/operations';
import type * as z from 'zod/v4';
import { getEntitiesByCategory, getEntitiesByCategoryInput } from './operations/getEntitiesByCategory.js';
import type { EntitiesByCategoryResponse, EntitySummary } from './schemas.js';

export const iterateEntitiesByCategoryInput = getEntitiesByCategoryInput
  .pick({ categoryId: true, limit: true })
  .extend({
    startPage: nonNegativeInteger
      .meta({ description: 'The page to start from; left out, the service’s first page.' })
      .optional(),
  });
export type IterateEntitiesByCategoryInput = z.input<typeof iterateEntitiesByCategoryInput>;

export interface IterateOptions extends CallOptions {
  /** Stop after this many pages. Default 10 000. */
  maxPages?: number;
}

interface FetchedPage {
  response: EntitiesByCategoryResponse;
  requested: number | undefined;
  /** The service answered with the page before again: it does not honour `page`. */
  repeated: boolean;
}

/**
 * Every entity of a category, page after page, fetching a page only when the previous one is
 * consumed. The next page is the page number the service reports plus one (counting from 0 when
 * it reports none). It stops at an empty page, at a page shorter than the page size, or when the
 * service answers a page request with the page before (a service that ignores `page`), so an
 * entity is never yielded twice.
 *
 * The input is checked at once: a bad input throws a `ValidationError` before any request.
 */
export function iterateEntitiesByCategory(
  client: Client,
  input: IterateEntitiesByCategoryInput,
  options: IterateOptions = {},
): AsyncGenerator<EntitySummary, void, undefined> {
  const { categoryId, limit, startPage } = validateInput(iterateEntitiesByCategoryInput, input, {
    operation: 'iterateEntitiesByCategory',
  });
  let previous: { page: number | undefined; content: string } | undefined;

  return paginate<FetchedPage, EntitySummary, number | undefined>({
    first: startPage,
    maxPages: options.maxPages,
    async fetchPage(page) {
      const response = await getEntitiesByCategory(
        client,
        { categoryId, limit, page },
        { signal: options.signal },
      );
      const content = JSON.stringify(response.result);
      const repeated =
        previous !== undefined &&
        ((response.page !== undefined && response.page === previous.page) ||
          (response.result.length > 0 && content === previous.content));
      previous = { page: response.page, content };
      return { response, requested: page, repeated };
    },
    items: ({ response, repeated }) => (repeated ? [] : response.result),
    next({ response, requested, repeated }) {
      const count = response.result.length;
      const pageSize = response.pageSize ?? limit;
      if (repeated || count === 0 || (pageSize !== undefined && count < pageSize)) return undefined;
      return (response.page ?? requested ?? 0) + 1;
    },
  });
}
