/**
 * The JSON-RPC interface without a runtime: the method definitions, their inputs and results,
 * and the client on timers the host gives (`createRpcClientWith`). No timer, `process`,
 * `globalThis` or console (see `@blockwire/core/operations`), so an n8n node can bundle it. The
 * main entry adds `createRpcClient`, on the runtime's timers.
 */
export { actions } from './actions.js';
export {
  type BatchOptions,
  createRpcClientWith,
  LIMIT_EXCEEDED,
  MAX_BATCH_SIZE,
  type RequestArguments,
  type RpcClient,
  type RpcClientOptions,
  type RpcTimers,
} from './client.js';
export {
  addressInput,
  type BlockTag,
  blockTagInput,
  fullTransactionsInput,
  type Hex,
  hashInput,
  type Quantity,
  quantityInput,
  storageKeyInput,
  toQuantity,
} from './inputs.js';
export {
  defineRpcMethod,
  encodeParams,
  paramsToInput,
  type RpcMethod,
  type RpcMethodInput,
  type RpcMethodResult,
} from './method.js';
export {
  getBlockByHashMethod,
  getBlockByNumberMethod,
  getBlockReceiptsMethod,
  getProofMethod,
  getTransactionByHashMethod,
  getTransactionReceiptMethod,
  getUncleByBlockHashAndIndexMethod,
  getUncleByBlockNumberAndIndexMethod,
  methods,
} from './methods/index.js';
export {
  type Block,
  blockSchema,
  hex,
  type Log,
  logSchema,
  type Proof,
  proofSchema,
  type Receipt,
  receiptSchema,
  type StorageProof,
  storageProofSchema,
  type Transaction,
  transactionSchema,
  type Uncle,
  uncleSchema,
  type Withdrawal,
  withdrawalSchema,
} from './schemas.js';
