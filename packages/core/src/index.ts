export { createClient } from './create-client.js';
export * from './public.js';
export { createUndiciTransport, type UndiciTransportOptions } from './runtime.js';
export { createFetchTransport, type FetchTransportOptions } from './transport-fetch.js';
