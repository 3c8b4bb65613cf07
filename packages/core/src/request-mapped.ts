import type { ClientRequest, ClientResponse } from './client.js';

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
