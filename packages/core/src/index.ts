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
  BASE_URL_VARIABLES,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  type QueryValue,
  type RequestInfo,
  type ResponseInfo,
  type RetryInfo,
} from './client.js';
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
  type CallOptions,
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
export { chunk, mapInChunks, mapWithConcurrency, type PaginateOptions, paginate } from './paging.js';
export { pathSegment } from './path-segment.js';
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
} from './schemas.js';

import { runtimeProblem } from './runtime.js';

// On a Node.js too old, fail at import with one sentence, not later with a crash inside undici.
// (Nothing above runs undici at import: it is loaded on the first request.)
const unsupported = runtimeProblem();
if (unsupported) throw new Error(unsupported);

export { createUndiciTransport, type UndiciTransportOptions } from './runtime.js';
export {} from './suggest.js';
export type { Transport, TransportRequest, TransportResponse } from './transport.js';
export { createFetchTransport, type FetchTransportOptions } from './transport-fetch.js';
export { issuesOf, validateInput, validateResponse } from './validation.js';
