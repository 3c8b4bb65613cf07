/**
 * `createClient`: the client (./client.ts) on this build's runtime (./runtime.ts, or
 * ./runtime.fetch.ts in the build for runtimes with fetch only), with its own attempt timers.
 */
import { InFlight, sleepAtLeast } from './attempts.js';
import { createClientWith } from './client.js';
import type { Client, ClientRuntime } from './client-types.js';
import type { ClientOptions } from './options.js';
import { callChannel, defaultTransport, runtimeUserAgent } from './runtime.js';

const RUNTIME: ClientRuntime = {
  defaultTransport,
  get userAgent() {
    return runtimeUserAgent();
  },
  attempts: (timeoutMs) => new InFlight(timeoutMs),
  sleep: sleepAtLeast,
  callChannel: callChannel(),
};

/** A client for the service: base URLs per interface, the key sent the way each expects, retries, timeouts, typed errors. */
export function createClient(options: ClientOptions): Client {
  return createClientWith(options, RUNTIME);
}
