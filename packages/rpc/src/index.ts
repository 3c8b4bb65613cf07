export { createRpcClient } from './create-rpc-client.js';
export * from './operations.js';
