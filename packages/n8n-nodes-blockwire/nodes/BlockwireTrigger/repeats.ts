import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Where the trigger records the deliveries it passed on: `claim` records `keys` (distinct) for
 * this node and resolves with those it had not recorded before. This package's trigger uses n8n's
 * own store; n8n-nodes-blockwire-postgres gives its trigger a PostgreSQL one (queue mode).
 */
export interface RepeatStore {
  /** How errors name it: "n8n's database". */
  label: string;
  claim(context: IExecuteFunctions, keys: string[]): Promise<Set<string>>;
}

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
 * several processes (queue-mode workers) can still overlap — that is what the PostgreSQL store
 * (n8n-nodes-blockwire-postgres) is for.
 */
async function claimInN8n(context: IExecuteFunctions, keys: string[]): Promise<Set<string>> {
  const scope = repeatScope(context);
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

/** n8n's own deduplication store: exact in one n8n process (see `claimInN8n`). */
export const N8N_REPEAT_STORE: RepeatStore = { label: "n8n's database", claim: claimInN8n };

/**
 * Keys an execution in this process recorded in the repeat store, per trigger node (scope), the
 * newest {@link REPEAT_HISTORY}. A delivery made only of such keys is a repeat for certain — the
 * store already holds them — so the webhook can answer it without starting an execution that
 * would pass nothing on. In regular mode webhooks and executions share the process; in queue mode
 * executions run on workers, this stays empty in the webhook process, and the worker drops repeats.
 */
const recordedHere = new Map<string, Set<string>>();

/** The scope of a trigger node: its workflow and node ids. */
export function repeatScope(context: {
  getWorkflow(): { id?: string | null };
  getNode(): { id: string };
}): string {
  return `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
}

function rememberRecorded(scope: string, keys: readonly string[]): void {
  const recorded = recordedHere.get(scope) ?? new Set<string>();
  recordedHere.set(scope, recorded);
  for (const key of keys) {
    recorded.delete(key);
    recorded.add(key);
  }
  for (const oldest of recorded) {
    if (recorded.size <= REPEAT_HISTORY) break;
    recorded.delete(oldest);
  }
}

/** Whether an execution in this process recorded every one of `keys` (none: false). */
export function recordedByAnExecution(scope: string, keys: readonly string[]): boolean {
  const recorded = recordedHere.get(scope);
  return recorded !== undefined && keys.length > 0 && keys.every((key) => recorded.has(key));
}

/**
 * Which of `keys` this trigger node sees for the first time, recording them in `store`.
 * A key repeated within `keys` counts once (its first place).
 */
export async function firstSightings(
  context: IExecuteFunctions,
  keys: readonly string[],
  store: RepeatStore,
): Promise<boolean[]> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return [];
  const fresh = await store.claim(context, unique);
  rememberRecorded(repeatScope(context), unique);
  // The first place of a key takes it out of `fresh`: a later place of the same key is a repeat.
  return keys.map((key) => fresh.delete(key));
}
