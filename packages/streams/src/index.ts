/**
 * Streams: managing them, and receiving their webhooks (verification, parsing, the delivery
 * handler, stores and tracker). The operation objects and zod schemas of the management
 * endpoints are exported by `@blockwire/streams/operations` only.
 */
export * from './management/index.js';
export * from './webhooks/index.js';
