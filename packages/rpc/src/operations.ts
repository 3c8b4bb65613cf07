/**
 * The JSON-RPC interface without a runtime: the method definitions, their inputs and results,
 * and the client on timers the host gives (`createRpcClientWith`). No timer, `process`,
 * `globalThis` or console (see `@blockwire/core/operations`), so an n8n node can bundle it. The
 * main entry adds `createRpcClient`, on the runtime's timers.
 */
export { actions, type RpcAction } from './actions.js';
export { createRpcClientWith, type RpcTimers } from './client.js';
export { decodeLog, getDecodedLogs, getTokenBalance, readContract } from './contract-reads.js';
export {
  addressInput,
  blockTagInput,
  callInput,
  dataInput,
  fullTransactionsInput,
  hashInput,
  quantityInput,
  stateTagInput,
  storageKeyInput,
  storageSlotInput,
} from './inputs.js';
export { logFilterInput } from './log-filter.js';
export { defineRpcMethod, encodeParams, paramsToInput, type RpcMethod } from './method.js';
export * from './methods/index.js';
export * from './public.js';
export {
  blockSchema,
  feeHistorySchema,
  hex,
  logSchema,
  proofSchema,
  receiptSchema,
  storageProofSchema,
  transactionSchema,
  uncleSchema,
  withdrawalSchema,
} from './schemas.js';
export * from './wallet/index.js';
