/**
 * What the node sends back, as the contract lists it. Values stay the node's hex strings.
 * Objects are loose (unknown fields, such as a chain's own extras, pass through); fields the
 * contract says older blocks lack, and fields not every node sends, are optional.
 */
import { markStringCheck } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import type { Hex } from './inputs.js';

const HEX = /^0x[0-9a-fA-F]*$/;

/** 1 at the char codes of hex digits (0-9, a-f, A-F), 0 elsewhere below 256. */
const HEX_DIGIT = Uint8Array.from({ length: 256 }, (_, code) =>
  '0123456789abcdefABCDEF'.includes(String.fromCharCode(code)) ? 1 : 0,
);

/** Past this length the regular expression is the faster check (a 514-character bloom). */
const LONG = 130;

/**
 * Whether `value` is `0x` followed by hex digits (none is fine: `0x` is empty data), exactly as
 * /^0x[0-9a-fA-F]*$/ tests it. A block's answer has thousands of such fields, most of them
 * hashes, addresses and quantities: on those, reading the char codes against a table (four at a
 * time) takes about half the time of `RegExp.prototype.test`, whose cost per call outweighs its
 * speed per character there (41,000 strings of 300 blocks with their receipts: ~5 ms against
 * ~7-10 ms). On long strings (blooms, calldata) the regular expression is faster, so it checks them.
 */
export function isHex(value: unknown): value is Hex {
  if (typeof value !== 'string') return false;
  const length = value.length;
  if (length > LONG) return HEX.test(value);
  if (length < 2 || value.charCodeAt(0) !== 48 /* 0 */ || value.charCodeAt(1) !== 120 /* x */) return false;
  let i = 2;
  for (; i + 4 <= length; i += 4) {
    const a = value.charCodeAt(i);
    const b = value.charCodeAt(i + 1);
    const c = value.charCodeAt(i + 2);
    const d = value.charCodeAt(i + 3);
    if ((a | b | c | d) > 255 || (HEX_DIGIT[a]! & HEX_DIGIT[b]! & HEX_DIGIT[c]! & HEX_DIGIT[d]!) === 0)
      return false;
  }
  for (; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code > 255 || HEX_DIGIT[code] === 0) return false;
  }
  return true;
}

/**
 * A `0x`-prefixed hex string: a quantity, a hash, an address or data. `isHex` depends on the
 * string alone (markStringCheck), so a check that passed a field's string need not read an equal
 * one again: a block's hash repeated in each of its transactions, receipts and logs, a bloom.
 */
export const hex = z.custom<Hex>(markStringCheck(isHex), { error: 'must be a 0x-prefixed hex string' });

/**
 * A hex string that is a number (a block number, gas, a balance), not data: its JSON Schema says
 * `format: "quantity"`, so a consumer can show it as a decimal (the n8n node's Simplify does).
 */
export const quantity = hex.meta({ format: 'quantity' });

export const withdrawalSchema = z.looseObject({
  index: quantity,
  validatorIndex: quantity,
  address: hex,
  amount: quantity,
});

export const transactionSchema = z.looseObject({
  /** Null while the transaction is pending. */
  blockHash: hex.nullable(),
  blockNumber: quantity.nullable(),
  from: hex,
  gas: quantity,
  gasPrice: quantity.optional(),
  hash: hex,
  input: hex,
  nonce: quantity,
  /** Null for a contract creation. */
  to: hex.nullable(),
  transactionIndex: quantity.nullable(),
  value: quantity,
  v: quantity.optional(),
  r: hex.optional(),
  s: hex.optional(),
  type: quantity.optional(),
  chainId: quantity.optional(),
  maxFeePerGas: quantity.optional(),
  maxPriorityFeePerGas: quantity.optional(),
  accessList: z.array(z.unknown()).optional(),
  yParity: quantity.optional(),
});

/** Header fields shared by blocks and uncles. Hash, nonce and miner are null for a pending block. */
const headerFields = {
  difficulty: quantity,
  extraData: hex,
  gasLimit: quantity,
  gasUsed: quantity,
  hash: hex.nullable(),
  logsBloom: hex.nullable(),
  miner: hex.nullable(),
  mixHash: hex,
  nonce: hex.nullable(),
  number: quantity.nullable(),
  parentHash: hex,
  receiptsRoot: hex,
  sha3Uncles: hex,
  size: quantity,
  stateRoot: hex,
  timestamp: quantity,
  transactionsRoot: hex,
  uncles: z.array(hex),
  totalDifficulty: quantity.nullable().optional(),
};

/** Fields a block has only after the fork that introduced them (base fee, withdrawals, blobs, ...). */
const newerBlockFields = {
  baseFeePerGas: quantity.optional(),
  blobGasUsed: quantity.optional(),
  excessBlobGas: quantity.optional(),
  parentBeaconBlockRoot: hex.optional(),
  requestsHash: hex.optional(),
  withdrawals: z.array(withdrawalSchema).optional(),
  withdrawalsRoot: hex.optional(),
};

export const blockSchema = z.looseObject({
  ...headerFields,
  ...newerBlockFields,
  /** Hashes, or full transaction objects when `fullTransactions` is true. */
  transactions: z.array(z.union([hex, transactionSchema])),
});

export const uncleSchema = z.looseObject({ ...headerFields, ...newerBlockFields });

export const logSchema = z.looseObject({
  address: hex,
  topics: z.array(hex),
  data: hex,
  blockHash: hex.nullable().optional(),
  blockNumber: quantity.nullable().optional(),
  transactionHash: hex.nullable().optional(),
  transactionIndex: quantity.nullable().optional(),
  logIndex: quantity.nullable().optional(),
  removed: z.boolean().optional(),
});

export const receiptSchema = z.looseObject({
  transactionHash: hex,
  transactionIndex: quantity,
  blockHash: hex,
  blockNumber: quantity,
  from: hex,
  /** Null for a contract creation. */
  to: hex.nullable(),
  cumulativeGasUsed: quantity,
  gasUsed: quantity,
  /** The created contract, null when none was created. */
  contractAddress: hex.nullable(),
  logs: z.array(logSchema),
  logsBloom: hex,
  /** `0x1` success, `0x0` failure; blocks before Byzantium have `root` instead. */
  status: quantity.optional(),
  root: hex.optional(),
  effectiveGasPrice: quantity.optional(),
  type: quantity.optional(),
});

export const storageProofSchema = z.looseObject({
  key: hex,
  value: quantity,
  proof: z.array(hex),
});

export const proofSchema = z.looseObject({
  address: hex,
  accountProof: z.array(hex),
  balance: quantity,
  codeHash: hex,
  nonce: quantity,
  storageHash: hex,
  storageProof: z.array(storageProofSchema),
});

/** `eth_feeHistory`: one base fee more than blocks (the next block's), ratios as plain numbers. */
export const feeHistorySchema = z.looseObject({
  oldestBlock: quantity,
  baseFeePerGas: z.array(quantity),
  gasUsedRatio: z.array(z.number()),
  reward: z.array(z.array(quantity)).optional(),
  baseFeePerBlobGas: z.array(quantity).optional(),
  blobGasUsedRatio: z.array(z.number()).optional(),
});

export type Withdrawal = z.output<typeof withdrawalSchema>;
export type Transaction = z.output<typeof transactionSchema>;
/** An uncle block: a block's header fields, without transactions. */
export type Uncle = z.output<typeof uncleSchema>;
/** A block; `T` is `Hex` (hashes only, the default) or `Transaction` (full transactions). */
export type Block<T extends Hex | Transaction = Hex | Transaction> = Uncle & { transactions: T[] };
export type Log = z.output<typeof logSchema>;
export type Receipt = z.output<typeof receiptSchema>;
export type StorageProof = z.output<typeof storageProofSchema>;
export type Proof = z.output<typeof proofSchema>;
export type FeeHistory = z.output<typeof feeHistorySchema>;
