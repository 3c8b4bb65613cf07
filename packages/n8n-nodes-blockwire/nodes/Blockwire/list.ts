/** What a list answer looks like, and its entries: one place, read by the actions and the paging alike. */

/**
 * A list answer: its entries are under `items` (`result`), in one list, or (a search) in one list
 * per kind of hit (`{ entities, addresses, categories }`), each entry then tagged with its kind.
 * `sizeField` is the input that caps how many come back: the node's Limit fills it.
 */
export interface ListShape {
  items: string;
  kinds?: { key: string; kind: string }[];
  sizeField?: string;
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
