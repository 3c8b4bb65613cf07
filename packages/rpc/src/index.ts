export * from './operations.js';
export { createRpcClient } from './create-rpc-client.js';
