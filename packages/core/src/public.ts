/**
 * What the main entry (`@blockwire/core`) exports that needs no runtime: the public API but
 * `createClient` and the transports. `@blockwire/core/operations` exports it too, with the
 * plumbing a host without timers needs.
 */

export { type AttemptRecord, CALL_CHANNEL, type CallEndInfo, type CallMessage } from './call-events.js';
export { type Chain, EVM_CHAINS, findChain, resolveChain } from './chains.js';
export type {
  Api,
  BaseUrls,
  CallOptions,
  Client,
  ClientRequest,
  ClientResponse,
  HttpMethod,
} from './client-types.js';
export { defineEndpoint, type Endpoint, type EndpointCall, type RestAction } from './endpoint.js';
export {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  BadRequestError,
  BlockwireError,
  type ErrorDetails,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
export type { ClientHooks, RequestInfo, ResponseInfo, RetryInfo } from './hooks.js';
export type { IterateOptions } from './iterate.js';
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
  defineOperation,
  type FieldLocation,
  type FieldMapping,
  fieldsAt,
  fieldsIn,
  type Operation,
  type OperationInput,
  type OperationOutput,
  runOperation,
} from './operation.js';
export {
  BASE_URL_VARIABLES,
  type ClientOptions,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
} from './options.js';
export { chunk, mapInChunks, mapWithConcurrency, type PaginateOptions, paginate } from './paging.js';
export { pathSegment } from './path-segment.js';
export type { QueryValue } from './query.js';
export { createRedactor, REDACTED } from './redact.js';
export {
  DEFAULT_RETRY,
  type RetryOptions,
} from './retry.js';
export {
  evmAddress,
  evmChain,
  integerLike,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  numberLike,
  withMeta,
} from './schemas.js';
export type { Transport, TransportRequest, TransportResponse } from './transport.js';
export { issuesOf, validateInput, validateResponse } from './validation.js';
