import { ValidationError } from '@blockwire/core';
import type { BitcoinDeliveryStage } from './payloads.js';
import type { TxRecord } from './store.js';

type Row = Record<string, unknown>;

/**
 * The fields the store keeps in columns of their own must be text PostgreSQL can hold: no U+0000,
 * no lone surrogate (no real txid, stream id or block has them; the transaction itself may, and is
 * kept as JSON text).
 */
export function checkKeys(record: TxRecord, index: number): void {
  const UNSTORABLE = /[\0\p{Cs}]/u; // in `u` mode, a surrogate matches only when it is alone
  const keys = {
    txid: record.txid,
    streamId: record.streamId,
    'block.height': record.block.height,
    'block.hash': record.block.hash,
  };
  for (const [path, value] of Object.entries(keys)) {
    if (typeof value === 'string' && !UNSTORABLE.test(value)) continue;
    throw new ValidationError(
      [
        {
          path: path === 'txid' ? `transactions[${index}].txid` : path,
          message: 'holds U+0000 or a lone surrogate, which PostgreSQL cannot store',
        },
      ],
      { subject: 'Bitcoin webhook payload' },
    );
  }
}

/** PostgreSQL's text cannot hold U+0000 (a message may quote what a delivery carried). */
export const withoutNul = (text: string) => text.replaceAll('\0', '\uFFFD');

/** A record from its row. */
export const toRecord = (row: Row): TxRecord => ({
  txid: String(row.txid),
  stage: row.stage as BitcoinDeliveryStage,
  tx: JSON.parse(String(row.tx)),
  block: { height: String(row.block_height), hash: String(row.block_hash) },
  streamId: String(row.stream_id),
  firstSeenAt: Number(row.first_seen_at),
  updatedAt: Number(row.updated_at),
  ...(row.delivery_id == null
    ? {}
    : {
        deliveryId: String(row.delivery_id),
        previousStage: (row.previous_stage ?? null) as BitcoinDeliveryStage | null,
      }),
});
