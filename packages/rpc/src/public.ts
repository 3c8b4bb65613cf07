/**
 * What a user of `@blockwire/rpc` meets besides `createRpcClient`: the client's types, its
 * limits, and the shapes of what the methods return. Shared by the main entry and
 * `@blockwire/rpc/operations`, which adds the method definitions and their zod schemas.
 */

export { ContractRevertError, NotErc20Error } from './abi/revert.js';
export {
  type BatchOptions,
  type Eip1193ErrorFields,
  LIMIT_EXCEEDED,
  MAX_BATCH_SIZE,
  type RequestArguments,
  type RpcClient,
  type RpcClientOptions,
} from './client.js';
export type {
  ContractReads,
  DecodedLog,
  ReadContractParameters,
  TokenBalance,
  UndecodedLog,
} from './contract-reads.js';
export { formatUnits, hexToBigInt, hexToNumber } from './convert.js';
export { type BlockTag, type Hex, type Quantity, toChecksumAddress, toQuantity } from './inputs.js';
export { MAX_LOG_BLOCK_RANGE } from './log-filter.js';
export type { RpcMethodInput, RpcMethodResult } from './method.js';
export type {
  Block,
  FeeHistory,
  Log,
  Proof,
  Receipt,
  StorageProof,
  Transaction,
  Uncle,
  Withdrawal,
} from './schemas.js';
