/**
 * The plumbing the Blockwire packages share with each other and with the emulator: building and
 * matching requests, the retry policy's parts, redaction of nested values (all of
 * `@blockwire/core/operations`), with the runtime's wait. Not the public API: it may change in
 * any release; use the main entry (`@blockwire/core`) in your own code.
 */
export { sleepAtLeast } from './attempts.js';
export { runtimeValidationPaths } from './create-client.js';
export { unsupportedNodeMessage } from './node-version.js';
export { inputFromRequest, matchPath } from './operation.js';
export * from './operations.js';
