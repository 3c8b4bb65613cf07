/**
 * The operation layer without a runtime: operation definitions and their metadata, request
 * building, input and response validation, error types and mapping, chunking, redaction, the
 * retry policy's decisions and the client on a runtime the host gives (`createClientWith`). It
 * uses no timer, no `process`, no `globalThis` and no console, so a host that forbids them (an
 * n8n node, which n8n's verification scanner checks) can run every endpoint on its own HTTP
 * stack and waits. The interface packages build on this entry; in your own code use the main
 * one (`@blockwire/core`), which adds the Node.js (or fetch) runtime: `createClient`. Beyond the
 * main entry's names, what is here may change in any release.
 */

export { AdaptiveConcurrency, type AttemptSlot, type AttemptSlots } from './adaptive-concurrency.js';
export {
  type AgentDescription,
  describeForAgent,
  hasShape,
  outputJsonSchema,
  schemaOfValue,
  shapeOf,
} from './agent-description.js';
export { rpcChainSegment, suggestChain } from './chains.js';
export { createClientWith } from './client.js';
export type { ClientRuntime } from './client-types.js';
export { apiErrorFor, OUTCOME_UNKNOWN_NOTE } from './errors.js';
export { defineIterator, iterateOperation } from './iterate.js';
export { checkOptionsObject, type KnownKeys, unknownKeyIssues } from './known-keys.js';
export {
  assertClient,
  type BuiltRequest,
  buildRequest,
  resolveCallOptions,
  sendOperation,
  validateOperationInput,
} from './operation.js';
export { DEFAULT_MAX_PAGES, type WalkPagesOptions, walkPages } from './paging.js';
export { hasLoneSurrogate, pathSegmentIssue } from './path-segment.js';
export * from './public.js';
export { encodeQuery } from './query.js';
export { redactValue } from './redact.js';
export { serviceMessageOf } from './responses.js';
export {
  type AttemptOutcome,
  backoffDelay,
  decideRetry,
  MAX_TIMER_MS,
  mayHaveTakenEffect,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryDecision,
  resolveRetryOptions,
} from './retry.js';
export { type ValidationPaths, validationOf } from './speed/index.js';
export { markStringCheck, passesUnchanged } from './speed/unchanged.js';
export { didYouMean, nearest } from './suggest.js';
export { type AttemptHandle, AttemptTimeout } from './transport.js';
export { issueMessage, maskKeyInValidationError } from './validation.js';
