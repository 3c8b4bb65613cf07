import type { Api } from './client-types.js';

/** Where the key goes: a header for the REST interfaces, the last path segment for JSON-RPC. */
export const AUTH: Record<Api, { header: string } | { pathSegment: true }> = {
  evm: { header: 'X-API-Key' },
  streams: { header: 'X-API-Key' },
  solana: { header: 'X-Api-Key' },
  node: { pathSegment: true },
};

/** Headers, URL pieces and what errors show, for one interface: worked out once per client. */
export interface Route {
  /** Base URL, key masked (it may hold the key when pasted from a dashboard). */
  shownBaseUrl: string;
  /** `/<key>` for the node interface, '' elsewhere. */
  keyPath: string;
  /** For GET and friends; shared, never changed (a transport of your own gets a copy). */
  headers: Readonly<Record<string, string>>;
  /** The same with `content-type: application/json`, for requests with a body. */
  jsonHeaders: Readonly<Record<string, string>>;
  /** Where a built-in transport sends, without parsing a URL; undefined when the base URL is unusual. */
  direct: { origin: string; basePath: string } | undefined;
}

/** Headers, URL pieces and what errors show for one interface, from its base URL and the key. */
export function routeFor(
  api: Api,
  baseUrl: string,
  apiKey: string,
  userAgent: string | undefined,
  redact: (text: string) => string,
): Route {
  const auth = AUTH[api];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (userAgent !== undefined) headers['user-agent'] = userAgent;
  if ('header' in auth) headers[auth.header] = apiKey;
  const url = new URL(baseUrl);
  // Sent without parsing only when the URL parser would leave the base URL as it is.
  const plain =
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    baseUrl === `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  return {
    shownBaseUrl: redact(baseUrl),
    keyPath: 'pathSegment' in auth ? `/${encodeURIComponent(apiKey)}` : '',
    headers: Object.freeze({ ...headers }),
    jsonHeaders: Object.freeze({ ...headers, 'content-type': 'application/json' }),
    direct: plain ? { origin: url.origin, basePath: baseUrl.slice(url.origin.length) } : undefined,
  };
}

/**
 * A path the URL parser would send as it is: only characters it leaves alone, and no dot
 * segment (`.`, `..`, `%2e`…, which it resolves). The operations' paths always are; a path given
 * to `client.request` that is not goes through the parser, as a URL would.
 */
export function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path);
}
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e)(?:\.|%2e)?(?:\/|$)/i;
