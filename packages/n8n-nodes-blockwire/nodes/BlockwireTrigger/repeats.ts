import type { IExecuteFunctions } from 'n8n-workflow';
import { claimInPostgres, type PostgresRepeatCredentials } from './postgres-repeats';

/** Where the trigger records the deliveries it passed on (the node's Repeat Store parameter). */
export type RepeatStoreKind = 'n8n' | 'postgres';

export const REPEAT_STORE_CREDENTIAL = 'blockwirePostgresApi';

/**
 * How many delivery keys n8n's database keeps per trigger node: the history size of n8n's own
 * Remove Duplicates node, far more than one retry window of the service.
 */
export const REPEAT_HISTORY = 10_000;

/** Two processes recording a node's first keys at once both insert its row: one insert fails. */
const RECORD_ATTEMPTS = 3;

/** Read-then-writes of n8n's store for one node in this process, one after the other. */
const recording = new Map<string, Promise<unknown>>();

function oneAtATime<T>(scope: string, task: () => Promise<T>): Promise<T> {
  const next = (recording.get(scope) ?? Promise.resolve()).then(task, task);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  recording.set(scope, settled);
  void settled.then(() => {
    if (recording.get(scope) === settled) recording.delete(scope);
  });
  return next;
}

/**
 * n8n's deduplication store (the one its Remove Duplicates node uses; scope: this node). It reads
 * the node's whole key list and writes it back without a lock, so two calls at once lose keys:
 * calls from this process go one at a time, which makes it exact in one n8n process. Calls from
 * several processes (queue-mode workers) can still overlap — that is what the PostgreSQL store is for.
 */
async function claimInN8n(context: IExecuteFunctions, keys: string[]): Promise<Set<string>> {
  const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
  const record = async () => {
    const result = await context.helpers.checkProcessedAndRecord(keys, 'node', {
      mode: 'entries',
      maxEntries: REPEAT_HISTORY,
    });
    return new Set(result.new.map(String));
  };
  return await oneAtATime(scope, async () => {
    for (let attempt = 1; attempt < RECORD_ATTEMPTS; attempt++) {
      const recorded = await record().catch(() => undefined);
      if (recorded) return recorded;
    }
    return await record();
  });
}

/**
 * Which of `keys` this trigger node sees for the first time, recording them in the chosen store.
 * A key repeated within `keys` counts once (its first place).
 */
export async function firstSightings(
  context: IExecuteFunctions,
  keys: readonly string[],
  store: RepeatStoreKind,
): Promise<boolean[]> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return [];
  let fresh: Set<string>;
  if (store === 'postgres') {
    const credentials = await context.getCredentials<PostgresRepeatCredentials>(REPEAT_STORE_CREDENTIAL);
    const scope = { workflowId: context.getWorkflow().id ?? '', nodeId: context.getNode().id };
    fresh = await claimInPostgres(credentials, scope, unique);
  } else {
    fresh = await claimInN8n(context, unique);
  }
  // The first place of a key takes it out of `fresh`: a later place of the same key is a repeat.
  return keys.map((key) => fresh.delete(key));
}
