import type { ClientRequest, ClientResponse } from './client-types.js';

/**
 * How a client of `createClientWith` takes a request whose 2xx answer is mapped before its promise
 * settles: `client[REQUEST_MAPPED](req, map)` is `client.request(req).then((r) => map(r, req))`,
 * with one promise for the whole call (operation.ts sends every operation so). Not public: a
 * client of one's own has only `request`.
 */
export const REQUEST_MAPPED = Symbol('blockwire.requestMapped');

export interface MappingClient {
  [REQUEST_MAPPED]<R extends ClientRequest, T>(
    req: R,
    map: (response: ClientResponse, req: R) => T,
  ): Promise<T>;
}

/**
 * Set to true on a request whose path its sender built from plain pieces (see `isPlainPath`): an
 * operation's template of plain text, each value a plain or encoded segment already refused when
 * it is a dot segment. Such a path is sent without a second look. Not public, and not forgeable:
 * only the SDK holds the symbol.
 */
export const PLAIN_PATH = Symbol('blockwire.plainPath');

export interface PlainPathMark {
  readonly [PLAIN_PATH]?: boolean;
}
