/**
 * SDK clients for tests: a client whose every interface points at a test server, and the file's
 * shared server with such a client. The interface packages' tests use these; they live here, not
 * in a published package's `src/`.
 */
import { type Client, type ClientOptions, createClient } from '@blockwire/core';
import { baseUrlsFor, type Responder, type TestServer, useTestServer } from './index.js';

export const API_KEY = 'test-key-1234567890';

/** The streams base URL has a path of its own in the tests, to prove paths are joined below it. */
export const STREAMS_BASE_PATH = '/streams-api';

/** A client of the test server (streams below {@link STREAMS_BASE_PATH}); no retries unless asked for. */
export function clientFor(server: TestServer, options: Partial<ClientOptions> = {}): Client {
  return createClient({
    apiKey: API_KEY,
    baseUrls: { ...baseUrlsFor(server), streams: `${server.url}${STREAMS_BASE_PATH}` },
    retry: false,
    ...options,
  });
}

/** The file's shared test server and a client pointed at it (see `useTestServer`). */
export function useServer(respond: Responder = () => ({ body: {} })) {
  return useTestServer(respond, (server) => clientFor(server));
}
