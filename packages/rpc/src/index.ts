export { createRpcClient } from './create-rpc-client.js';
export * from './public.js';
