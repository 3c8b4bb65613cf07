/**
 * `createClient`: the client (./client.ts) on this build's runtime (./runtime.ts, or
 * ./runtime.fetch.ts in the build for runtimes with fetch only), with its own attempt timers.
 */
import { InFlight, sleepAtLeast } from './attempts.js';
import { createClientWith } from './client.js';
import type { CallTracingChannel, Client, ClientRuntime } from './client-types.js';
import type { ClientOptions } from './options.js';
import { callChannel, defaultTransport, runtimeProblem, runtimeUserAgent } from './runtime.js';
import { compileFieldChecker } from './speed/compile-fields.js';
import { type ValidationPaths, validationPaths } from './speed/index.js';

/** The call channel, looked up at the first client (nothing runs at import). */
let channel: CallTracingChannel | undefined | null = null;

const RUNTIME: ClientRuntime = {
  defaultTransport,
  get userAgent() {
    return runtimeUserAgent();
  },
  attempts: (timeoutMs) => new InFlight(timeoutMs),
  sleep: sleepAtLeast,
  // Answers' object shapes checked by code made per shape (where the runtime allows it).
  fieldCompiler: compileFieldChecker,
  get callChannel() {
    if (channel === null) channel = callChannel();
    return channel;
  },
};

/** A client for the service: base URLs per interface, the key sent the way each expects, retries, timeouts, typed errors. */
export function createClient(options: ClientOptions): Client {
  // On a Node.js too old, one sentence here, not a crash inside undici at the first request.
  const unsupported = runtimeProblem();
  if (unsupported) throw new Error(unsupported);
  return createClientWith(options, RUNTIME);
}

/**
 * The validation paths `createClient` gives a client with `fastValidation: fast`, for a check
 * made without a client (the webhook kit's payloads).
 */
export function runtimeValidationPaths(fast = true): ValidationPaths {
  return validationPaths(fast, compileFieldChecker);
}
