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

/**
 * The same memory, kept in this n8n process too, per workflow and node. Needed because n8n's
 * static data loses updates: each webhook call and each execution loads the workflow's static
 * data when it starts and writes its whole copy back when it ends, so an execution that ends late
 * overwrites the keys that later deliveries wrote. The union of both is what is remembered; static
 * data alone carries it across a restart.
 */
const processMemory = new Map<string, string[]>();

/** A short, fixed-length key for one delivery unit (a txid + stage, an EVM block + flag + stream). */
export function memoryKey(...parts: readonly (string | number | boolean)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('base64url').slice(0, 16);
}

/**
 * Which of `keys` were not seen before, recording them. `scope` names the trigger (workflow and
 * node) in this process. The whole list is replaced rather than pushed to: n8n saves static data
 * only when one of its properties is assigned.
 */
export function rememberNew(
  staticData: TriggerStaticData,
  keys: readonly string[],
  options: { scope?: string; size?: number } = {},
): boolean[] {
  const size = options.size ?? MEMORY_SIZE;
  const known = [
    ...new Set([...(staticData.seen ?? []), ...((options.scope && processMemory.get(options.scope)) || [])]),
  ];
  const seen = new Set(known);
  const added: string[] = [];
  const fresh = keys.map((key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    added.push(key);
    return true;
  });
  if (added.length > 0 || known.length !== (staticData.seen ?? []).length) {
    const updated = [...known, ...added].slice(-size);
    staticData.seen = updated;
    if (options.scope) processMemory.set(options.scope, updated);
  }
  return fresh;
}

/** Forgets what a trigger saw (its stream was deleted: a new one starts afresh). */
export function forgetDeliveries(staticData: TriggerStaticData, scope: string): void {
  delete staticData.seen;
  processMemory.delete(scope);
}

/** The name a trigger's memory goes by in this process. */
export function memoryScope(workflowId: string | undefined, nodeId: string): string {
  return `${workflowId ?? ''}:${nodeId}`;
}
