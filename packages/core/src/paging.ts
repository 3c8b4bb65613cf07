/** Helpers for endpoints that page their results or cap how much one call may carry. */
import type { Paging } from './metadata.js';

/** A guard against a service that never says "last page". */
export const DEFAULT_MAX_PAGES = 10_000;

export interface PaginateOptions<TPage, TItem, TToken> {
  /** The token of the first page (a page number, a cursor, or undefined). */
  first: TToken;
  fetchPage(token: TToken): Promise<TPage>;
  items(page: TPage): readonly TItem[];
  /** The next page's token, or undefined when this was the last page. */
  next(page: TPage, token: TToken): TToken | undefined;
  /** Stop after this many pages. Default {@link DEFAULT_MAX_PAGES}. */
  maxPages?: number;
}

/**
 * Yields every item of every page, fetching the next page only when the previous is consumed.
 * Besides `next` saying "last", it stops at an empty page, at a page that brings no item not
 * yielded before (a service that ignores the page or cursor it is sent answers the same page, or
 * alternates between two: those items are not yielded twice), at a next token it has already asked
 * for (no progress), and after `maxPages` pages.
 */
export async function* paginate<TPage, TItem, TToken>(
  options: PaginateOptions<TPage, TItem, TToken>,
): AsyncGenerator<TItem, void, undefined> {
  let token: TToken = options.first;
  const asked = new Set<string>([keyOf(token)]);
  const seen = new Set<string>();
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  for (let pages = 0; pages < maxPages; pages++) {
    const page: TPage = await options.fetchPage(token);
    const items = options.items(page);
    if (!bringsNewItems(items, seen)) return;
    yield* items;
    const next = options.next(page, token);
    if (next === undefined || asked.has(keyOf(next))) return;
    asked.add(keyOf(next));
    token = next;
  }
}

/** Whether `items` holds one not in `seen` (an empty page holds none); records them as seen. */
function bringsNewItems(items: readonly unknown[], seen: Set<string>): boolean {
  let news = false;
  for (const item of items) {
    const key = keyOf(item);
    if (!seen.has(key)) {
      seen.add(key);
      news = true;
    }
  }
  return news;
}

/** A comparable text for a token or a page of items (bigints included, which JSON refuses). */
function keyOf(value: unknown): string {
  return JSON.stringify(value, (_, item) => (typeof item === 'bigint' ? `${item}n` : item)) ?? 'undefined';
}

export interface WalkPagesOptions {
  /** The operation's paging metadata: which input field takes the page or cursor, where the items are. */
  paging: Paging;
  /** The first request's input. A page number or cursor in it is where the walk starts. */
  input: Record<string, unknown>;
  /** Sends one request (the input with the page or cursor set) and returns its answer. */
  fetchPage(input: Record<string, unknown>): Promise<unknown>;
  /** Stop after this many pages. Default {@link DEFAULT_MAX_PAGES}. */
  maxPages?: number;
}

/**
 * Every item of a paged list, driven by an operation's `paging` metadata: the SDK's iterators and
 * the n8n node walk lists with it. On top of {@link paginate}'s guards, a cursor list ends when an
 * answer has no next cursor, and a numbered list at a page shorter than its page size (the size
 * the service reports, else the one asked for). A cursor list does not stop at a short page: a
 * cursor is the service's own word that more follows.
 */
export function walkPages<TItem = unknown>(
  options: WalkPagesOptions,
): AsyncGenerator<TItem, void, undefined> {
  const { paging, input } = options;
  const tokenField = paging.style === 'cursor' ? paging.cursorField : paging.pageField;
  let firstPageCount: number | undefined;
  return paginate<unknown, TItem, unknown>({
    first: input[tokenField],
    maxPages: options.maxPages,
    fetchPage: (token) => options.fetchPage({ ...input, [tokenField]: token }),
    items: (answer) => itemsOf<TItem>(answer, paging),
    next: (answer, token) => {
      if (paging.style === 'cursor') return nextCursor(answer, paging.nextCursor);
      firstPageCount ??= itemsOf(answer, paging).length;
      return nextPage(answer, token, paging, input, firstPageCount);
    },
  });
}

function field(answer: unknown, name: string): unknown {
  return typeof answer === 'object' && answer !== null
    ? (answer as Record<string, unknown>)[name]
    : undefined;
}

function itemsOf<TItem>(answer: unknown, paging: Paging): readonly TItem[] {
  const items = field(answer, paging.items);
  return Array.isArray(items) ? (items as TItem[]) : [];
}

function nextCursor(answer: unknown, name: string): string | undefined {
  const cursor = field(answer, name);
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

function nextPage(
  answer: unknown,
  token: unknown,
  paging: Extract<Paging, { style: 'page' }>,
  input: Record<string, unknown>,
  firstPageCount: number,
): number | undefined {
  const count = itemsOf(answer, paging).length;
  // With no size asked or reported, the service's own size is what its first page held.
  const size =
    numberOf(paging.reportedPageSize && field(answer, paging.reportedPageSize)) ??
    numberOf(paging.limitField && input[paging.limitField]) ??
    firstPageCount;
  if (size !== undefined && count < size) return undefined;
  const page = numberOf(paging.reportedPage && field(answer, paging.reportedPage)) ?? numberOf(token) ?? 0;
  return page + 1;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
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
