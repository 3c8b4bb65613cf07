/**
 * The operation layer without a runtime: operation definitions and their metadata, request
 * building, input and response validation, error types and mapping, chunking, redaction, the
 * retry policy's decisions and the client on a runtime the host gives (`createClientWith`). It
 * uses no timer, no `process`, no `globalThis` and no console, so a host that forbids them (an
 * n8n node, which n8n's verification scanner checks) can run every endpoint on its own HTTP
 * stack and waits. The interface packages build on this entry; in your own code use the main
 * one (`@blockwire/core`), which adds the Node.js (or fetch) runtime: `createClient`.
 */
export { type Chain, EVM_CHAINS, findChain, resolveChain } from './chains.js';
export {
  type Api,
  type BaseUrls,
  type Client,
  type ClientHooks,
  type ClientOptions,
  type ClientRequest,
  type ClientResponse,
  type ClientRuntime,
  createClientWith,
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
  type Operation,
  type OperationInput,
  type OperationOutput,
  resolveCallOptions,
  runOperation,
  sendOperation,
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
export { didYouMean, nearest } from './suggest.js';
export {
  type AttemptHandle,
  AttemptTimeout,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';
export { passesUnchanged } from './unchanged.js';
export { issuesOf, maskKeyInValidationError, validateInput, validateResponse } from './validation.js';
