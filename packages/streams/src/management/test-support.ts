/** The shared test server, and a client whose streams interface points at it. */
import { type Client, type ClientOptions, createClient } from '@blockwire/core';
import type { TestServer } from '@blockwire/testing';

export {
  type RecordedRequest,
  type Reply,
  type Responder,
  startServer,
  type TestServer,
} from '@blockwire/testing';

export const API_KEY = 'streams-test-key-0123456789';
/** The streams base URL has a path of its own in the tests, to prove paths are joined below it. */
export const STREAMS_BASE_PATH = '/streams-api';

/** A client whose streams interface points at the test server; no retries unless asked for. */
export function clientFor(server: TestServer, options: Partial<ClientOptions> = {}): Client {
  return createClient({
    apiKey: API_KEY,
    baseUrls: { streams: `${server.url}${STREAMS_BASE_PATH}` },
    retry: false,
    ...options,
  });
}
