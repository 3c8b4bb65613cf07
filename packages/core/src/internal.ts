/**
 * The plumbing the Blockwire packages share with each other and with the emulator: building and
 * matching requests, the retry policy's parts, redaction of nested values. Not the public API: it
 * may change in any release; use the main entry (`@blockwire/core`) in your own code.
 */
export { encodeQuery, serviceMessageOf } from './client.js';
export { apiErrorFor, OUTCOME_UNKNOWN_NOTE } from './errors.js';

import { unsupportedNodeMessage } from './node-version.js';
import { runtimeProblem } from './runtime.js';

// Like the main entry: on a Node.js too old, fail at import with one sentence.
const unsupported = runtimeProblem();
if (unsupported) throw new Error(unsupported);

export { checkOptionsObject, type KnownKeys, unknownKeyIssues } from './known-keys.js';
export {
  assertClient,
  type BuiltRequest,
  buildRequest,
  inputFromRequest,
  matchPath,
  resolveCallOptions,
  sendOperation,
  validateOperationInput,
} from './operation.js';
export { hasLoneSurrogate, pathSegmentIssue } from './path-segment.js';
export { redactValue } from './redact.js';
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
  sleepAtLeast,
} from './retry.js';
export { didYouMean, nearest } from './suggest.js';
export { passesUnchanged } from './unchanged.js';
export { maskKeyInValidationError } from './validation.js';
export { unsupportedNodeMessage };
