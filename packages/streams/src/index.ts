export * from './management/index.js';
export * from './webhooks/index.js';
