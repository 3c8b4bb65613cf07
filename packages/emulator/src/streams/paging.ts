import { StreamsRequestError } from './errors.js';

const DEFAULT_LIMIT = 100;

/**
 * One page of a list: `{ total, result, cursor? }`. The cursor is opaque to callers (the offset of
 * the next page, base64url); it is absent on the last page.
 */
export function page<T>(
  items: readonly T[],
  input: Record<string, unknown>,
): { total: number; result: T[]; cursor?: string } {
  const limit = input.limit === undefined ? DEFAULT_LIMIT : Number(input.limit);
  const offset = input.cursor === undefined ? 0 : decodeCursor(String(input.cursor));
  const result = items.slice(offset, offset + limit);
  const next = offset + result.length;
  return {
    total: items.length,
    result,
    ...(limit > 0 && next < items.length
      ? { cursor: Buffer.from(`offset:${next}`).toString('base64url') }
      : {}),
  };
}

export function decodeCursor(cursor: string): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new StreamsRequestError(400, 'cursor is not a cursor from a previous page');
  return Number(match[1]);
}
