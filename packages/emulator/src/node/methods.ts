/**
 * The JSON-RPC methods the node interface serves, and how the emulator makes anvil answer them the
 * way the contract (and a hosted node) does.
 */
import { methods as contractMethods } from '@blockwire/rpc/operations';

/**
 * The standard methods of the Ethereum execution API a hosted node serves over HTTP, besides the
 * eight of the contract: the reads viem and ethers make (chain id, balances, calls, logs, filters,
 * fees) and `eth_sendRawTransaction`.
 *
 * An allow-list, not a deny-list of anvil's extras. anvil grows test methods with every release
 * (`anvil_*`, `evm_*`, `hardhat_*`, `ots_*`, …), and some sit behind the standard prefix:
 * `eth_sendUnsignedTransaction` skips signing, `eth_sendTransaction`, `eth_sign*` and
 * `eth_accounts` use its unlocked dev accounts, which no hosted node holds. A deny-list would let
 * the next one through, and one call of it rewinds or rewrites the chain for every client. Mining
 * and resets are the control API's (`POST /node/mine`, `POST /node/reset`).
 */
const STANDARD_METHODS = [
  'eth_blockNumber',
  'eth_chainId',
  'eth_syncing',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_blobBaseFee',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_simulateV1',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getLogs',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_newPendingTransactionFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
  'eth_sendRawTransaction',
  'net_version',
  'net_listening',
  'net_peerCount',
  'web3_clientVersion',
  'web3_sha3',
] as const;

/** Every method the node interface answers; anything else is `-32601` and never reaches anvil. */
export const SERVED_METHODS: ReadonlySet<string> = new Set([
  ...contractMethods.map((method) => method.method),
  ...STANDARD_METHODS,
]);

/**
 * Methods whose result is an object (or count) or `null`: a block, uncle or transaction that does
 * not exist is `null` on a real node, where anvil answers a block past its head with `-32602
 * BlockOutOfRangeError` and an unknown block hash with `-32001 Resource not found`.
 */
const NULL_FOR_UNKNOWN_BLOCK: ReadonlySet<string> = new Set([
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
]);

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** anvil's words for "no such block": the only errors turned into `null`. */
function isUnknownBlock(error: RpcErrorObject): boolean {
  return (
    (error.code === -32602 && error.message.startsWith('BlockOutOfRangeError')) ||
    (error.code === -32001 && error.message === 'Resource not found')
  );
}

/** The params as anvil must get them for the contract's meaning. */
export function paramsForAnvil(method: string, params: unknown): unknown {
  if (method !== 'eth_getProof' || !Array.isArray(params)) return params;
  // geth takes any hex storage key (`0x0`); anvil wants whole bytes: padded to the 32 a slot is.
  const keys = Array.isArray(params[1]) ? params[1].map(padStorageKey) : params[1];
  // anvil proves an empty account for `pending`. With automine nothing is ever pending, so the
  // pending state is the latest one (what a node answers when its pending block is empty).
  const tag = params[2] === 'pending' ? 'latest' : params[2];
  return params.length > 2 ? [params[0], keys, tag, ...params.slice(3)] : [params[0], keys];
}

function padStorageKey(key: unknown): unknown {
  return typeof key === 'string' && /^0x[0-9a-fA-F]{1,63}$/.test(key)
    ? `0x${key.slice(2).padStart(64, '0')}`
    : key;
}

/** anvil's answer to one call, as the contract has it. */
export function answerAsContract(
  method: string,
  reply: { result?: unknown; error?: RpcErrorObject },
): { result: unknown } | { error: RpcErrorObject } {
  if (reply.error) {
    if (NULL_FOR_UNKNOWN_BLOCK.has(method) && isUnknownBlock(reply.error)) return { result: null };
    return { error: reply.error };
  }
  return { result: hexTimestamps(reply.result) };
}

/**
 * anvil gives a receipt's `blockTimestamp` as a JSON number; every quantity of the contract is a
 * `0x` hex string (its logs already carry it as hex).
 */
function hexTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexTimestamps);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === 'blockTimestamp' && typeof item === 'number' && Number.isSafeInteger(item) && item >= 0
        ? `0x${item.toString(16)}`
        : hexTimestamps(item);
  }
  return out;
}
