import { getBlockByHashMethod } from './getBlockByHash.js';
import { getBlockByNumberMethod } from './getBlockByNumber.js';
import { getBlockReceiptsMethod } from './getBlockReceipts.js';
import { getProofMethod } from './getProof.js';
import { getTransactionByHashMethod } from './getTransactionByHash.js';
import { getTransactionReceiptMethod } from './getTransactionReceipt.js';
import { getUncleByBlockHashAndIndexMethod } from './getUncleByBlockHashAndIndex.js';
import { getUncleByBlockNumberAndIndexMethod } from './getUncleByBlockNumberAndIndex.js';

export {
  getBlockByHashMethod,
  getBlockByNumberMethod,
  getBlockReceiptsMethod,
  getProofMethod,
  getTransactionByHashMethod,
  getTransactionReceiptMethod,
  getUncleByBlockHashAndIndexMethod,
  getUncleByBlockNumberAndIndexMethod,
};

/** Every typed method of the node interface, in the contract's order. */
export const methods = [
  getBlockByHashMethod,
  getBlockByNumberMethod,
  getUncleByBlockHashAndIndexMethod,
  getUncleByBlockNumberAndIndexMethod,
  getBlockReceiptsMethod,
  getTransactionByHashMethod,
  getTransactionReceiptMethod,
  getProofMethod,
] as const;
