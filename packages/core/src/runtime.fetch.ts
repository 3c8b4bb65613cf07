/**
 * The runtime module of the build for runtimes with `fetch` only (edge, browser, Deno, Bun): it
 * replaces ./runtime.ts there (see tsup.config.ts). Nothing here touches Node.js.
 */

import { CALL_CHANNEL } from './call-events.js';
import type { CallTracingChannel } from './client-types.js';
import { createFetchTransport } from './transport-fetch.js';
import type { UndiciTransportOptions } from './transport-undici.js';

export type { UndiciTransportOptions };

export const RUNTIME: 'node' | 'fetch' = 'fetch';

/** undici is Node's: this build has none. The same name throws, saying what to use instead. */
export function createUndiciTransport(_options?: UndiciTransportOptions): never {
  throw new Error(
    'createUndiciTransport needs Node.js, and this is the build of @blockwire/core for runtimes with fetch only: leave the transport out (the default is fetch here) or use createFetchTransport()',
  );
}

export const defaultTransport = () => createFetchTransport();

/** A browser sets its own User-Agent; elsewhere the client names itself only. */
export const runtimeUserAgent = (): string | undefined => undefined;

export const runtimeProblem = (): string | undefined => undefined;

interface HostProcess {
  getBuiltinModule?(
    id: 'node:diagnostics_channel',
  ): { tracingChannel?(name: string): CallTracingChannel } | undefined;
}

/**
 * The `blockwire:call` tracing channel where the host has `node:diagnostics_channel` (Bun, Deno,
 * workerd with Node.js compatibility), looked up without importing it: a browser has none.
 */
export const callChannel = (): CallTracingChannel | undefined => {
  const host = (globalThis as { process?: HostProcess }).process;
  try {
    return host?.getBuiltinModule?.('node:diagnostics_channel')?.tracingChannel?.(CALL_CHANNEL);
  } catch {
    return undefined;
  }
};
