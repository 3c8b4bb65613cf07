/** The shared test server, and a client whose every interface points at it. */
import { type Client, createClient } from '@blockwire/core';
import { baseUrlsFor, type Responder, type TestServer, useTestServer } from '@blockwire/testing';

export {
  type RecordedRequest,
  type Reply,
  type Responder,
  startServer,
  type TestServer,
} from '@blockwire/testing';

export const API_KEY = 'test-key-1234567890';

export function clientFor(server: TestServer): Client {
  return createClient({ apiKey: API_KEY, baseUrls: baseUrlsFor(server), retry: false });
}

/** The file's shared test server and a client pointed at it (see `useTestServer`). */
export function useServer(respond: Responder = () => ({ body: {} })) {
  return useTestServer(respond, clientFor);
}
