import { type CallOptions, type Client, walkPages } from '@blockwire/core/operations';
import type { NodeAction } from './actions';
import { entriesOf } from './list';

/**
 * Every entry of a paged list, or the first `limit`, walked by the SDK's own paging engine from
 * the action's `paging` metadata: it follows the cursor or page number until the service reports
 * no next page, a page is empty or short, a cursor repeats, or a page brings no entry not seen
 * before (a service that ignores the page number answers the same page again). Pages are asked
 * at the largest size the page-size field allows, or the Limit when that is smaller.
 */
export async function collectPages(
  action: Pick<NodeAction, 'paging' | 'fields' | 'call'>,
  client: Client,
  input: Record<string, unknown>,
  options: { returnAll: boolean; limit: number; callOptions?: CallOptions },
): Promise<unknown[]> {
  const paging = action.paging!;
  const first: Record<string, unknown> = { ...input };
  const size = pageSize(action, options);
  if (paging.limitField && size !== undefined) first[paging.limitField] = size;
  if (paging.style === 'page') first[paging.pageField] ??= 0;
  const collected: unknown[] = [];
  const pages = walkPages({
    paging,
    input: first,
    fetchPage: (request) => action.call(client, request, options.callOptions),
  });
  for await (const entry of pages) {
    collected.push(entry);
    if (!options.returnAll && collected.length >= options.limit) break;
  }
  return collected;
}

/** The size to ask each page at: the field's maximum, or the Limit when that is smaller. */
function pageSize(
  action: Pick<NodeAction, 'paging' | 'fields'>,
  options: { returnAll: boolean; limit: number },
): number | undefined {
  const sizeField = action.paging?.limitField;
  if (!sizeField) return undefined;
  const maximum = action.fields.find((field) => field.name === sizeField)?.schema.maximum as
    | number
    | undefined;
  if (options.returnAll) return maximum;
  return maximum === undefined ? options.limit : Math.min(options.limit, maximum);
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
