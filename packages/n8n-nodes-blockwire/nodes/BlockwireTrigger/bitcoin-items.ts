import {
  type BitcoinDeliveryStage,
  type BitcoinOutput,
  type BitcoinTransaction,
  type BitcoinWebhook,
  btcToSats,
  isCoinbaseTransaction,
  satsToBtc,
} from '@blockwire/streams/operations';
import type { IDataObject } from 'n8n-workflow';

/**
 * One workflow item per transaction of a Bitcoin delivery: where it stands (`stage`, block), the
 * coinbase flag the payload cannot give (its `isCoinbase` is always false), its value and fee in
 * BTC and in satoshis (exact: converted from the decimal text, never by float maths), each output
 * the same way, and the raw transaction under `tx`.
 */
export function bitcoinTransactionItem(
  payload: BitcoinWebhook,
  stage: BitcoinDeliveryStage,
  tx: BitcoinTransaction,
): IDataObject {
  const inMempool = stage === 'mempool';
  return {
    txid: tx.txid,
    stage,
    confirmed: payload.confirmed,
    blockHeight: inMempool ? null : heightOf(payload.block.height),
    blockHash: inMempool ? null : payload.block.hash,
    isCoinbase: isCoinbaseTransaction(tx),
    ...amount('value', tx.value),
    ...amount('fee', tx.fee),
    addresses: tx.addresses ?? [],
    outputs: (tx.vout ?? []).map(outputItem),
    streamId: payload.streamId,
    chainId: payload.chainId,
    tag: typeof payload.tag === 'string' ? payload.tag : null,
    retries: payload.retries ?? 0,
    tx: tx as IDataObject,
  };
}

function outputItem(output: BitcoinOutput): IDataObject {
  return {
    n: output.n ?? null,
    address: output.address ?? output.scriptPubKey?.address ?? output.addresses?.[0] ?? null,
    type: output.scriptPubKey?.type ?? null,
    ...amount('value', output.value),
  };
}

/**
 * `<name>Btc` and `<name>Sats` for an amount as the payload gives it (decimal BTC). Satoshi counts
 * fit a JavaScript number exactly (21 million BTC is 2.1e15 sats < 2^53). An amount that is not
 * a whole number of satoshis (or is missing) gives nulls rather than a rounded figure.
 */
function amount(name: string, value: number | string | null | undefined): IDataObject {
  let sats: bigint | undefined;
  try {
    sats = value === null || value === undefined ? undefined : btcToSats(value);
  } catch {
    sats = undefined;
  }
  return {
    [`${name}Btc`]: sats === undefined ? null : Number(satsToBtc(sats)),
    [`${name}Sats`]: sats === undefined ? null : Number(sats),
  };
}

function heightOf(height: string): number | null {
  return /^\d{1,15}$/.test(height) ? Number(height) : null;
}
