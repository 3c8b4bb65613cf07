/**
 * What differs between runtimes, in one place. This is the Node.js one: undici as the default
 * transport, a Node version check, `node/<version>` in the User-Agent. The build for runtimes
 * with `fetch` only (the package's "browser", "workerd", "edge-light"… export conditions) takes
 * ./runtime.fetch.ts instead, so an edge or browser bundle carries no undici.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { CALL_CHANNEL } from './call-events.js';
import type { CallTracingChannel } from './client-types.js';
import { unsupportedNodeMessage } from './node-version.js';
import { createUndiciTransport } from './transport-undici.js';

export { createUndiciTransport, type UndiciTransportOptions } from './transport-undici.js';

export const RUNTIME: 'node' | 'fetch' = 'node';

export const defaultTransport = () => createUndiciTransport();

/** The runtime's part of the default User-Agent. */
export const runtimeUserAgent = (): string | undefined => `node/${process.versions.node}`;

/** Why this runtime cannot run the package, in one sentence; undefined when it can. */
export const runtimeProblem = (): string | undefined => unsupportedNodeMessage();

/** The `blockwire:call` tracing channel (see ./diagnostics.ts). */
export const callChannel = (): CallTracingChannel | undefined => tracingChannel(CALL_CHANNEL);
