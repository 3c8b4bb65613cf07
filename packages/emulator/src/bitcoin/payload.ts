import { satsToBtcNumber } from './amount.js';
import { asmOf } from './scripts.js';
import type { SimBlock, SimTransaction } from './simulator.js';

/** The chain id Bitcoin payloads carry; the same `mainnet` the block endpoints take in their path. */
export const BITCOIN_CHAIN_ID = 'mainnet';

export type DeliveryStage = 'mempool' | 'in-block' | 'confirmed';

export interface PayloadOptions {
  streamId: string;
  tag: string;
  includeInputs: boolean;
  includeOutputs: boolean;
}

/** Addresses a transaction touches: its senders (spent outputs) and its recipients. */
export function addressesOf(tx: SimTransaction): string[] {
  const all = [...tx.vin.map((input) => input.address), ...tx.vout.map((output) => output.script.address)];
  return [...new Set(all.filter((address): address is string => address !== null))];
}

/** The payload of a mempool delivery: one transaction, the spec's `0` / `mempool` sentinel block. */
export function mempoolPayload(options: PayloadOptions, tx: SimTransaction, retries = 0) {
  return {
    streamId: options.streamId,
    chainId: BITCOIN_CHAIN_ID,
    tag: options.tag,
    confirmed: false,
    retries,
    block: { height: '0', hash: 'mempool', timestamp: tx.seenAt, transactionCount: 1 },
    transactions: [transactionJson(options, tx, 'mempool')],
  };
}

/** The payload of a block-path delivery (in-block or confirmed), also what the block-data endpoint returns. */
export function blockPayload(
  options: PayloadOptions,
  block: SimBlock,
  txs: SimTransaction[],
  confirmed: boolean,
  retries = 0,
) {
  return {
    streamId: options.streamId,
    chainId: BITCOIN_CHAIN_ID,
    tag: options.tag,
    confirmed,
    retries,
    block: {
      height: String(block.height),
      hash: block.hash,
      previousBlockHash: block.previousBlockHash,
      timestamp: block.timestamp,
      difficulty: block.difficulty,
      merkleRoot: block.merkleRoot,
      transactionCount: block.transactions.length,
      bits: block.bits,
      nonce: block.nonce,
      version: block.version,
      size: block.size,
    },
    transactions: txs.map((tx) => transactionJson(options, tx, confirmed ? 'confirmed' : 'in-block', block)),
  };
}

export type BitcoinPayload = ReturnType<typeof mempoolPayload> | ReturnType<typeof blockPayload>;

function transactionJson(
  options: PayloadOptions,
  tx: SimTransaction,
  stage: DeliveryStage,
  block?: SimBlock,
) {
  // The service fills input addresses and values from the mempool only; block payloads carry
  // structural input fields, as the spec says.
  const inputDetails = stage === 'mempool';
  const valueSats = tx.vout.reduce((sum, output) => sum + output.valueSats, 0n);
  return {
    txid: tx.txid,
    hash: tx.txid,
    version: tx.version,
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    locktime: tx.locktime,
    isCoinbase: false,
    blockHash: block?.hash ?? null,
    blockHeight: block ? String(block.height) : null,
    inputCount: tx.vin.length,
    outputCount: tx.vout.length,
    addresses: addressesOf(tx),
    value: satsToBtcNumber(valueSats),
    fee: satsToBtcNumber(tx.feeSats),
    vin: options.includeInputs
      ? tx.vin.map((input) => ({
          ...(input.coinbase === undefined ? {} : { coinbase: input.coinbase }),
          txid: input.txid,
          vout: input.vout,
          scriptSig: {
            asm: input.coinbase === undefined ? asmOf(input.scriptSigHex) : '',
            hex: input.scriptSigHex,
          },
          txinwitness: input.witness,
          sequence: input.sequence,
          address: inputDetails ? input.address : null,
          value: inputDetails && input.valueSats !== null ? satsToBtcNumber(input.valueSats) : null,
        }))
      : [],
    vout: options.includeOutputs
      ? tx.vout.map((output) => ({
          value: satsToBtcNumber(output.valueSats),
          n: output.n,
          address: output.script.address,
          addresses: output.script.address === null ? [] : [output.script.address],
          scriptPubKey: {
            asm: output.script.asm,
            hex: output.script.hex,
            type: output.script.type,
            ...(output.script.address === null ? {} : { address: output.script.address }),
          },
        }))
      : [],
  };
}
