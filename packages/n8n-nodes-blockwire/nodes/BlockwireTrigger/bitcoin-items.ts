import {
  type BitcoinDeliveryStage,
  type BitcoinInput,
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
 * BTC and in satoshis (exact: converted from the decimal text, never by float maths), what the
 * `watched` addresses received and sent in it, each output the same way, and the raw transaction
 * under `tx`.
 */
export function bitcoinTransactionItem(
  payload: BitcoinWebhook,
  stage: BitcoinDeliveryStage,
  tx: BitcoinTransaction,
  watched: ReadonlySet<string> = new Set(),
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
    ...sats('received', receivedBy(tx, watched)),
    ...sats('sent', sentBy(tx, watched)),
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
    address: outputAddress(output),
    type: output.scriptPubKey?.type ?? null,
    ...amount('value', output.value),
  };
}

function outputAddress(output: BitcoinOutput): string | null {
  return output.address ?? output.scriptPubKey?.address ?? output.addresses?.[0] ?? null;
}

/** What the outputs paying a watched address add up to; unknown when one of them has no amount. */
function receivedBy(tx: BitcoinTransaction, watched: ReadonlySet<string>): bigint | undefined {
  if (watched.size === 0) return undefined;
  return sum(
    (tx.vout ?? []).filter((output) => watched.has(outputAddress(output) ?? '')).map((o) => o.value),
  );
}

/**
 * What the inputs spent from a watched address add up to. Unknown when an input does not say whose
 * it is: block payloads carry no input addresses or values (only mempool ones do).
 */
function sentBy(tx: BitcoinTransaction, watched: ReadonlySet<string>): bigint | undefined {
  const inputs: BitcoinInput[] = tx.vin ?? [];
  if (watched.size === 0 || inputs.some((input) => !input.address && !isCoinbaseInput(input)))
    return undefined;
  return sum(inputs.filter((input) => watched.has(input.address ?? '')).map((input) => input.value));
}

function isCoinbaseInput(input: BitcoinInput): boolean {
  return 'coinbase' in input;
}

function sum(values: (number | string | null | undefined)[]): bigint | undefined {
  let total = 0n;
  for (const value of values) {
    const part = satsOf(value);
    if (part === undefined) return undefined;
    total += part;
  }
  return total;
}

function satsOf(value: number | string | null | undefined): bigint | undefined {
  try {
    return value === null || value === undefined ? undefined : btcToSats(value);
  } catch {
    return undefined;
  }
}

/**
 * `<name>Btc` and `<name>Sats` for an amount as the payload gives it (decimal BTC). An amount that
 * is not a whole number of satoshis (or is missing) gives nulls rather than a rounded figure.
 */
function amount(name: string, value: number | string | null | undefined): IDataObject {
  return sats(name, satsOf(value));
}

/** Satoshi counts fit a JavaScript number exactly (21 million BTC is 2.1e15 sats < 2^53). */
function sats(name: string, value: bigint | undefined): IDataObject {
  return {
    [`${name}Btc`]: value === undefined ? null : Number(satsToBtc(value)),
    [`${name}Sats`]: value === undefined ? null : Number(value),
  };
}

function heightOf(height: string): number | null {
  return /^\d{1,15}$/.test(height) ? Number(height) : null;
}
