/** The n8n-queue scenario's simultaneous copies: each delivery posted twice at once, to two workers. */
import { DEFAULT_SECRET_KEY } from '@blockwire/emulator';
import { signBody } from '@blockwire/streams';
import { itemsOf, type N8nApi, waitFor } from 'n8n-nodes-blockwire/e2e/n8n.ts';
import { executionsByWorker, type N8nQueue } from 'n8n-nodes-blockwire/e2e/queue.ts';
import { TRIGGER_NODE } from './n8n-queue-workflows.ts';
import { tally } from './sdk.ts';

export interface CopiesOutcome {
  deliveries: number;
  /** Deliveries whose two copies ran on different workers. */
  onTwoWorkers: number;
  once: number;
  doubled: number;
  lost: number;
}

/**
 * Posts each body twice at the same moment to the webhook processor (signed with the emulator's
 * secret), waits for every execution, and counts how often each delivery reached the workflow.
 */
export async function sendTwiceAtOnce(
  api: N8nApi,
  queue: N8nQueue,
  run: {
    workflowId: string;
    path: string;
    idOf: (item: Record<string, unknown>) => string;
    bodies: { id: string; body: unknown }[];
  },
): Promise<CopiesOutcome> {
  const before = (await api.executions(run.workflowId)).length;
  const statuses = await Promise.all(
    run.bodies.flatMap(({ body }) => {
      const text = JSON.stringify(body);
      const post = async () =>
        (
          await fetch(`${queue.webhookProcessorUrl}${run.path}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-signature': await signBody(text, DEFAULT_SECRET_KEY),
            },
            body: text,
          })
        ).status;
      return [post(), post()];
    }),
  );
  const notAccepted = statuses.filter((status) => status !== 200).length;
  if (notAccepted > 0)
    throw new Error(`${notAccepted} simultaneous copies were not answered 200: ${statuses}`);
  const executions = await waitFor(
    'the executions of the simultaneous copies',
    async () => {
      const all = await api.executions(run.workflowId);
      return all.length >= before + statuses.length &&
        all.every((execution) => execution.status !== 'running')
        ? all.slice(before)
        : undefined;
    },
    120_000,
    1_000,
  );
  const ranBy = executionsByWorker(queue);
  const ids = new Set(run.bodies.map((entry) => entry.id));
  // Who handled each copy: the worker whose execution passed it on (n8n's records), and the worker
  // that dropped it (its log line names the delivery key, which holds the id).
  const handledBy = new Map<string, string[]>();
  const note = (id: string, worker: string) => handledBy.set(id, [...(handledBy.get(id) ?? []), worker]);
  const emitted: Record<string, number> = {};
  for (const execution of executions) {
    for (const item of itemsOf(execution, TRIGGER_NODE)) {
      const id = run.idOf(item);
      tally(emitted, id);
      note(id, ranBy.get(execution.id) ?? 'unknown');
    }
  }
  for (const worker of queue.processes.filter((child) => child.role === 'worker')) {
    for (const match of worker.output().matchAll(/dropped \d+ of \d+ items, delivered before: (.*)/g)) {
      for (const id of ids) if (match[1]!.includes(id)) note(id, worker.name);
    }
  }
  const counts = run.bodies.map((entry) => emitted[entry.id] ?? 0);
  return {
    deliveries: run.bodies.length,
    onTwoWorkers: [...handledBy.values()].filter((workers) => new Set(workers).size > 1).length,
    once: counts.filter((count) => count === 1).length,
    doubled: counts.filter((count) => count > 1).length,
    lost: counts.filter((count) => count === 0).length,
  };
}

/** An EVM stream delivery of one block, the shape the service posts. */
export function evmDelivery(blockNumber: string, hash: string) {
  return {
    confirmed: false,
    chainId: '0x1',
    streamId: 'b3e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    tag: 'queue',
    retries: 0,
    block: { number: blockNumber, hash, timestamp: '1731024000' },
    logs: [{ address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', topic0: '0xddf2' }],
    txs: [],
  };
}
