export { type Chain, EVM_CHAINS, findChain, resolveChain } from './chains.js';
export {
  type Api,
  type BaseUrls,
  type Client,
  type ClientHooks,
  type ClientOptions,
  type ClientRequest,
  type ClientResponse,
  createClient,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  encodeQuery,
  type HttpMethod,
  type QueryValue,
  type RequestInfo,
  type ResponseInfo,
  type RetryInfo,
  serviceMessageOf,
} from './client.js';
export {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  apiErrorFor,
  BadRequestError,
  BlockwireError,
  type ErrorDetails,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  OUTCOME_UNKNOWN_NOTE,
  PermissionError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
export {
  type Action,
  type ActionDescription,
  type Chunking,
  checkPresentation,
  defineAction,
  describeAction,
  describeFields,
  type Example,
  type FieldInfo,
  type FieldMeta,
  type FieldOption,
  type FieldType,
  inputJsonSchema,
  type JsonSchema,
  labelOf,
  type Paging,
  type Presentation,
  undocumentedFields,
} from './metadata.js';
export {
  assertClient,
  type BuiltRequest,
  buildRequest,
  type CallOptions,
  defineOperation,
  type FieldLocation,
  type FieldMapping,
  fieldsAt,
  fieldsIn,
  inputFromRequest,
  matchPath,
  type Operation,
  type OperationInput,
  type OperationOutput,
  resolveCallOptions,
  runOperation,
  validateOperationInput,
} from './operation.js';
export { chunk, mapInChunks, mapWithConcurrency, type PaginateOptions, paginate } from './paging.js';
export { hasLoneSurrogate, pathSegment, pathSegmentIssue } from './path-segment.js';
export { createRedactor, REDACTED, redactValue } from './redact.js';
export {
  type AttemptOutcome,
  backoffDelay,
  DEFAULT_RETRY,
  decideRetry,
  MAX_TIMER_MS,
  mayHaveTakenEffect,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryDecision,
  type RetryOptions,
  resolveRetryOptions,
  sleepAtLeast,
} from './retry.js';
export {
  evmAddress,
  evmChain,
  integerLike,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  numberLike,
} from './schemas.js';

import { unsupportedNodeMessage } from './node-version.js';

// On a Node.js too old, fail at import with one sentence, not later with a crash inside undici.
// (Nothing above runs undici at import: it is loaded on the first request.)
const unsupported = unsupportedNodeMessage();
if (unsupported) throw new Error(unsupported);

export { didYouMean, nearest } from './suggest.js';
export {
  createUndiciTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';
export { issuesOf, validateInput, validateResponse } from './validation.js';
export { unsupportedNodeMessage };
