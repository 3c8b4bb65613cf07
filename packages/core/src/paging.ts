/** Helpers for endpoints that page their results or cap how much one call may carry. */

export interface PaginateOptions<TPage, TItem, TToken> {
  /** The token of the first page (a page number, a cursor, or undefined). */
  first: TToken;
  fetchPage(token: TToken): Promise<TPage>;
  items(page: TPage): readonly TItem[];
  /** The next page's token, or undefined when this was the last page. */
  next(page: TPage, token: TToken): TToken | undefined;
  /** Stop after this many pages, as a guard against a service that never says "last". */
  maxPages?: number;
}

/** Yields every item of every page, fetching the next page only when the previous is consumed. */
export async function* paginate<TPage, TItem, TToken>(
  options: PaginateOptions<TPage, TItem, TToken>,
): AsyncGenerator<TItem, void, undefined> {
  let token: TToken | undefined = options.first;
  const maxPages = options.maxPages ?? 10_000;
  for (let pages = 0; pages < maxPages; pages++) {
    const page: TPage = await options.fetchPage(token as TToken);
    yield* options.items(page);
    token = options.next(page, token as TToken);
    if (token === undefined) return;
  }
}

/** Splits a list into consecutive chunks of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('chunk size must be an integer >= 1');
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Maps items with at most `concurrency` calls in flight; results keep the input order.
 * The first failure rejects the whole call (calls already running are left to finish).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let nextIndex = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && nextIndex < items.length) {
      const index = nextIndex++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}

/** Calls `fn` once per chunk of at most `size` items, a few at a time, and joins the results in order. */
export async function mapInChunks<T, R>(
  items: readonly T[],
  options: { size: number; concurrency?: number },
  fn: (chunk: T[], index: number) => Promise<readonly R[]>,
): Promise<R[]> {
  const results = await mapWithConcurrency(chunk(items, options.size), options.concurrency ?? 4, fn);
  return results.flat();
}
