import { badRequest } from '../handlers/define.js';

const DEFAULT_LIMIT = 100;

/**
 * One page of a list: `{ total, result, cursor? }`. The cursor is opaque to callers (the offset of
 * the next page, base64url); it is absent on the last page.
 */
export function page<T>(
  items: readonly T[],
  input: { limit?: number | undefined; cursor?: string | undefined },
): { total: number; result: T[]; cursor?: string } {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const offset = input.cursor === undefined ? 0 : decodeCursor(input.cursor);
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
  if (!match) throw badRequest('cursor is not a cursor from a previous page');
  return Number(match[1]);
}
