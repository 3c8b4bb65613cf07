import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * How many deliveries the trigger remembers to drop repeats: the service retries until it gets a
 * 200, so a delivery whose answer was lost arrives again. 10,000 entries of 16 characters keep
 * the workflow's static data near 200 kB while covering far more than one retry window.
 */
export const MEMORY_SIZE = 10_000;

/** The node's static data: the stream it created (Bitcoin mode) and the deliveries it has seen. */
export interface TriggerStaticData extends IDataObject {
  streamId?: string;
  webhookUrl?: string;
  seen?: string[];
}

/** A short, fixed-length key for one delivery unit (a txid + stage, an EVM block + flag + stream). */
export function memoryKey(...parts: readonly (string | number | boolean)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('base64url').slice(0, 16);
}

/**
 * Which of `keys` were not seen before, recording them. The whole list is replaced rather than
 * pushed to: n8n saves static data only when a top-level property is assigned.
 */
export function rememberNew(
  staticData: TriggerStaticData,
  keys: readonly string[],
  size = MEMORY_SIZE,
): boolean[] {
  const seen = new Set(staticData.seen ?? []);
  const added: string[] = [];
  const fresh = keys.map((key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    added.push(key);
    return true;
  });
  if (added.length > 0) staticData.seen = [...(staticData.seen ?? []), ...added].slice(-size);
  return fresh;
}
