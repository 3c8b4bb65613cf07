import { issuesOf, ValidationError, type ValidationPaths, validationOf } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { isBlankText, rawTextOf } from './body.js';

/** A BTC amount as the service sends it: a decimal BTC number (not satoshis); use `btcToSats` for exact maths. */
const btcAmount = z.union([z.number(), z.string()]).nullable().optional();
const heightLike = z.union([z.string(), z.number().transform(String)]);

export const bitcoinScriptPubKeySchema = z.looseObject({
  /** `nulldata` marks an OP_RETURN output. */
  type: z.string().optional(),
  asm: z.string().optional(),
  hex: z.string().optional(),
  address: z.string().nullable().optional(),
});

export const bitcoinInputSchema = z.looseObject({
  txid: z.string().nullable().optional(),
  vout: z.number().nullable().optional(),
  /** Populated in mempool payloads; always null in confirmed-block payloads. */
  address: z.string().nullable().optional(),
  /** Populated in mempool payloads; always null in confirmed-block payloads. */
  value: btcAmount,
  sequence: z.number().nullable().optional(),
});

export const bitcoinOutputSchema = z.looseObject({
  value: btcAmount,
  n: z.number().optional(),
  address: z.string().nullable().optional(),
  addresses: z.array(z.string()).nullable().optional(),
  scriptPubKey: bitcoinScriptPubKeySchema.optional(),
});

export const bitcoinTransactionSchema = z.looseObject({
  txid: z.string(),
  vin: z.array(bitcoinInputSchema).optional(),
  vout: z.array(bitcoinOutputSchema).optional(),
  addresses: z.array(z.string()).nullable().optional(),
  value: btcAmount,
  fee: btcAmount,
  /** Always false in real payloads: use `isCoinbaseTransaction` instead. */
  isCoinbase: z.boolean().optional(),
});

export const bitcoinBlockSchema = z.looseObject({
  /** `"0"` for a mempool delivery. */
  height: heightLike,
  /** `"mempool"` for a mempool delivery. */
  hash: z.string(),
});

export const bitcoinWebhookSchema = z.looseObject({
  streamId: z.string(),
  chainId: z.string(),
  confirmed: z.boolean(),
  block: bitcoinBlockSchema,
  retries: z.number().int().min(0).optional(),
  transactions: z.array(bitcoinTransactionSchema),
});

const evmBlockSchema = z.looseObject({
  number: z.string().optional(),
  hash: z.string().optional(),
  timestamp: z.string().optional(),
});
const records = z.array(z.looseObject({})).optional();

export const evmWebhookSchema = z.looseObject({
  confirmed: z.boolean(),
  chainId: z.string(),
  streamId: z.string(),
  tag: z.string().optional(),
  retries: z.number().int().min(0).optional(),
  block: evmBlockSchema.optional(),
  logs: records,
  txs: records,
  txsInternal: records,
  erc20Transfers: records,
  erc20Approvals: records,
  nftTransfers: records,
  nativeBalances: records,
  abi: z.array(z.unknown()).optional(),
});

export type BitcoinScriptPubKey = z.infer<typeof bitcoinScriptPubKeySchema>;
export type BitcoinInput = z.infer<typeof bitcoinInputSchema>;
export type BitcoinOutput = z.infer<typeof bitcoinOutputSchema>;
export type BitcoinTransaction = z.infer<typeof bitcoinTransactionSchema>;
export type BitcoinBlock = z.infer<typeof bitcoinBlockSchema>;
export type BitcoinWebhook = z.infer<typeof bitcoinWebhookSchema>;
export type EvmWebhook = z.infer<typeof evmWebhookSchema>;

/** Where a Bitcoin delivery stands in the per-txid lifecycle; deliveries only ever move forward. */
export type BitcoinDeliveryStage = 'mempool' | 'in-block' | 'confirmed';
export const BITCOIN_DELIVERY_STAGES: readonly BitcoinDeliveryStage[] = ['mempool', 'in-block', 'confirmed'];

/** A stage's place in the lifecycle: a transaction's record only ever moves to a higher rank. */
export const bitcoinStageRank = (stage: BitcoinDeliveryStage): number =>
  BITCOIN_DELIVERY_STAGES.indexOf(stage);

/**
 * The same rank as an SQL expression over a column (SQLite and PostgreSQL alike), for the stores'
 * forward-only upserts: `WHERE ${bitcoinStageRankSql('new')} > ${bitcoinStageRankSql('stored')}`.
 */
export const bitcoinStageRankSql = (column: string): string =>
  `(CASE ${column} ${BITCOIN_DELIVERY_STAGES.map((stage) => `WHEN '${stage}' THEN ${bitcoinStageRank(stage)}`).join(' ')} END)`;

function parseWith<S extends z.ZodType>(
  schema: S,
  body: unknown,
  subject: string,
  paths: ValidationPaths,
): z.output<S> {
  let value = body;
  const text = rawTextOf(body);
  if (text !== undefined) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ValidationError([{ path: '', message: 'is not valid JSON' }], { subject, cause: error });
    }
  }
  // A delivery that passes as it is (the usual case) is not copied: 3,000 transactions stay put.
  if (paths.passesUnchanged(schema, value)) return value as z.output<S>;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(issuesOf(parsed.error), { subject });
  return parsed.data;
}

/** A Bitcoin stream delivery, typed; unknown fields are kept. Invalid → `ValidationError` naming the path. */
export function parseBitcoinWebhook(body: unknown): BitcoinWebhook {
  return parseBitcoinWebhookWith(body, validationOf(NO_CLIENT));
}

/** An EVM stream delivery, typed; unknown fields are kept. Invalid → `ValidationError` naming the path. */
export function parseEvmWebhook(body: unknown): EvmWebhook {
  return parseEvmWebhookWith(body, validationOf(NO_CLIENT));
}

/**
 * No client: the validation shortcuts of a client of one's own, without code made from text, as
 * the runtime-free entry has them (see `validationOf`).
 */
const NO_CLIENT = {};

/** `parseBitcoinWebhook` on the given validation paths (the handler's: see handler.ts). */
export function parseBitcoinWebhookWith(body: unknown, paths: ValidationPaths): BitcoinWebhook {
  return parseWith(bitcoinWebhookSchema, body, 'Bitcoin webhook payload', paths);
}

/** `parseEvmWebhook` on the given validation paths. */
export function parseEvmWebhookWith(body: unknown, paths: ValidationPaths): EvmWebhook {
  return parseWith(evmWebhookSchema, body, 'EVM webhook payload', paths);
}

const RECORD_LISTS = [
  'transactions',
  'logs',
  'txs',
  'txsInternal',
  'erc20Transfers',
  'erc20Approvals',
  'nftTransfers',
  'nativeBalances',
];

/**
 * Whether `body` is the verification POST the service sends when a stream is set up: an empty body
 * (also `{}`, which body parsers make of one), or a payload whose `streamId` and `chainId` are empty
 * strings and that carries no transactions or logs. Answer it with 200 and do nothing else.
 */
export function isVerificationRequest(body: unknown): boolean {
  let value = body;
  const text = rawTextOf(body);
  if (text !== undefined) {
    if (isBlankText(text)) return true;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
  }
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  const payload = value as Record<string, unknown>;
  // Every real delivery names its stream: it is not a verification, and nothing else is read.
  if (typeof payload.streamId === 'string' && payload.streamId !== '') return false;
  if (Object.keys(payload).length === 0) return true;
  if (payload.streamId !== '' || payload.chainId !== '') return false;
  return RECORD_LISTS.every((key) => {
    const list = payload[key];
    return list === undefined || list === null || (Array.isArray(list) && list.length === 0);
  });
}

/** Whether a delivery is a Bitcoin one (it has `transactions` or a `block.height`) rather than EVM. */
export function isBitcoinWebhook(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const payload = body as { transactions?: unknown; block?: { height?: unknown } | null };
  return Array.isArray(payload.transactions) || payload.block?.height !== undefined;
}

/**
 * The lifecycle stage a Bitcoin delivery announces: `mempool` (confirmed false, height `"0"`,
 * hash `"mempool"`), `in-block` (confirmed false, a real block near the tip, may still be
 * reorganized) or `confirmed` (confirmed true, 2 blocks deep, safe to persist).
 */
export function bitcoinDeliveryStage(payload: {
  confirmed: boolean;
  block: { height: string | number; hash: string };
}): BitcoinDeliveryStage {
  const inMempool = payload.block?.hash === 'mempool';
  if (payload.confirmed === true) {
    if (inMempool) {
      throw new ValidationError([{ path: 'block.hash', message: 'is "mempool" in a confirmed delivery' }], {
        subject: 'Bitcoin webhook payload',
      });
    }
    return 'confirmed';
  }
  return inMempool ? 'mempool' : 'in-block';
}

/**
 * Whether a transaction is a coinbase one: exactly one input and an OP_RETURN (`nulldata`) output.
 * The payload's `isCoinbase` is always false, so it is ignored.
 */
export function isCoinbaseTransaction(tx: {
  vin?: readonly unknown[] | null;
  vout?: ReadonlyArray<{ scriptPubKey?: { type?: string | undefined } | null | undefined }> | null;
  [field: string]: unknown;
}): boolean {
  return (
    (tx.vin?.length ?? 0) === 1 && (tx.vout ?? []).some((output) => output.scriptPubKey?.type === 'nulldata')
  );
}
