import type { CallOptions, Client } from '@blockwire/core/operations';
import type { ListShape, NodeAction } from './actions';

/** A guard against a service that never says "last page". */
const MAX_PAGES = 10_000;

/**
 * Every entry of a paged list, or the first `limit`: follows the action's cursor or page number
 * (its `paging` metadata) until the service reports no next page, a page comes back empty or
 * shorter than the size asked (or than the first page, when no size was sent), a cursor repeats,
 * a page brings no entry not seen before (a service that ignores the page number answers the same
 * page again), or enough entries are in. Page sizes never exceed what the page-size field allows.
 */
export async function collectPages(
  action: Pick<NodeAction, 'paging' | 'fields' | 'call'>,
  client: Client,
  input: Record<string, unknown>,
  options: { returnAll: boolean; limit: number; callOptions?: CallOptions },
): Promise<unknown[]> {
  const paging = action.paging!;
  const sizeField = paging.limitField;
  const maxSize = sizeField
    ? (action.fields.find((field) => field.name === sizeField)?.schema.maximum as number | undefined)
    : undefined;
  const collected: unknown[] = [];
  const seen = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let page = 0;
  let firstPageSize: number | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const request = { ...input };
    const remaining = options.returnAll ? undefined : options.limit - collected.length;
    const size = remaining === undefined ? maxSize : Math.min(remaining, maxSize ?? remaining);
    if (sizeField && size !== undefined) request[sizeField] = size;
    if (paging.style === 'cursor') {
      if (cursor !== undefined) request[paging.cursorField] = cursor;
    } else {
      request[paging.pageField] = page;
    }
    const answer = (await action.call(client, request, options.callOptions)) as
      | Record<string, unknown>
      | undefined;
    const entries = Array.isArray(answer?.[paging.items]) ? (answer[paging.items] as unknown[]) : [];
    if (!bringsNews(entries, seen)) break;
    collected.push(...entries);
    if (!options.returnAll && collected.length >= options.limit) return collected.slice(0, options.limit);
    if (paging.style === 'cursor') {
      const next = answer?.[paging.nextCursor];
      if (typeof next !== 'string' || next === '' || cursors.has(next)) break;
      cursors.add(next);
      cursor = next;
    } else {
      firstPageSize ??= entries.length;
      const expected = sizeField && size !== undefined ? size : firstPageSize;
      if (entries.length < expected) break;
      page++;
    }
  }
  return collected;
}

/**
 * Whether a page holds an entry not seen on an earlier page (and records its entries as seen). An
 * empty page brings nothing; so does a page the service repeats because it ignores the page number
 * or cursor: following it further would only collect duplicates until MAX_PAGES.
 */
function bringsNews(entries: readonly unknown[], seen: Set<string>): boolean {
  let news = false;
  for (const entry of entries) {
    const key =
      JSON.stringify(entry, (_, value) => (typeof value === 'bigint' ? `${value}n` : value)) ?? String(entry);
    if (!seen.has(key)) {
      seen.add(key);
      news = true;
    }
  }
  return news;
}

/**
 * The entries of a list the service does not page, one call: Limit is sent as its size field and
 * the entries are cut to it (a search answers up to that many of each kind); Return All sends no
 * size, taking everything the service gives in one answer.
 */
export async function collectCapped(
  action: Pick<NodeAction, 'list' | 'call'>,
  client: Client,
  input: Record<string, unknown>,
  options: { returnAll: boolean; limit: number; callOptions?: CallOptions },
): Promise<unknown[]> {
  const list = action.list!;
  const request = { ...input };
  if (list.sizeField && !options.returnAll) request[list.sizeField] = options.limit;
  const entries = entriesOf(await action.call(client, request, options.callOptions), list);
  return options.returnAll ? entries : entries.slice(0, options.limit);
}

/** A list answer's entries; a search's hits each as `{ kind, ...hit }`, kind by kind. */
export function entriesOf(answer: unknown, list: ListShape): unknown[] {
  const held = (answer as Record<string, unknown> | undefined)?.[list.items];
  if (!list.kinds) return Array.isArray(held) ? held : [];
  const groups = (held ?? {}) as Record<string, unknown>;
  return list.kinds.flatMap(({ key, kind }) => {
    const hits = Array.isArray(groups[key]) ? (groups[key] as unknown[]) : [];
    return hits.map((hit) => ({ kind, ...(hit as object) }));
  });
}
