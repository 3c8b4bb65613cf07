import { type CallOptions, type Client, mapWithConcurrency, validateInput } from '@blockwire/core/operations';
import { createRpcClientWith, type RpcClient } from '@blockwire/rpc/operations';
import { type IExecuteFunctions, type INodeExecutionData, NodeOperationError } from 'n8n-workflow';
import { blockwireClient } from '../shared/client';
import { toNodeError } from '../shared/errors';
import { N8N_RPC_TIMERS } from '../shared/runtime';
import type { NodeAction } from './actions';
import { itemParameter } from './item-parameter';
import { toItems } from './output';
import { collectCapped, collectPages } from './paging';
import { inputReader, rpcChainOf } from './parameters';

type Outcome = { items: INodeExecutionData[] } | { error: unknown };

/** Reads run this many items side by side; writes run one at a time, in order, as n8n does. */
const READ_CONCURRENCY = 4;

/**
 * Runs the selected action for every input item, from the table alone (no switch per action):
 * a chunked action (Solana prices) pools every item's list into one SDK call that splits it into
 * the service's request size; JSON-RPC calls of all items go out together, so the RPC client
 * batches them; others run per item, lists page until Limit or the end. Every output item is
 * paired with its input item; with Continue On Fail a failed item gives `{ error }` instead.
 */
export async function runAction(
  context: IExecuteFunctions,
  actions: readonly NodeAction[],
): Promise<INodeExecutionData[][]> {
  const resource = context.getNodeParameter('resource', 0) as string;
  const operation = context.getNodeParameter('operation', 0) as string;
  const action = actions.find(
    (candidate) => candidate.resource === resource && candidate.action === operation,
  );
  if (!action) {
    throw new NodeOperationError(
      context.getNode(),
      `Blockwire has no operation "${operation}" on "${resource}"`,
    );
  }
  const { client } = await blockwireClient(context);
  const count = context.getInputData().length;
  const run: Run = {
    context,
    action,
    client,
    count,
    options: { signal: context.getExecutionCancelSignal?.() },
    stopOnError: !context.continueOnFail(),
  };
  const outcomes = action.chunking
    ? await runChunked(run)
    : action.client === 'rpc'
      ? await runRpc(run)
      : await runEach(run);
  const labels = new Map<string, string>([
    ['chain', 'Chain'],
    ...action.fields.map((f) => [f.name, f.displayName] as const),
  ]);
  const output: INodeExecutionData[] = [];
  for (let index = 0; index < count; index++) {
    const outcome = outcomes[index];
    if (outcome === undefined) continue; // not run: an earlier item failed and stopped the node
    if ('items' in outcome) {
      output.push(...outcome.items);
      continue;
    }
    const error = toNodeError(context.getNode(), outcome.error, {
      itemIndex: index,
      itemCount: count,
      fieldLabel: (path) => labels.get(path),
      redact: client.redact,
    });
    if (run.stopOnError) throw error;
    // Which input item failed, in the item itself: merged or sorted later, it still says so.
    output.push({
      json: {
        error: error.message,
        ...(error.description ? { description: error.description } : {}),
        itemIndex: index,
      },
      pairedItem: { item: index },
    });
  }
  return [output];
}

interface Run {
  context: IExecuteFunctions;
  action: NodeAction;
  client: Client;
  count: number;
  options: CallOptions;
  stopOnError: boolean;
}

function itemsOf(run: Run, answer: unknown, itemIndex: number): Outcome {
  const { action } = run;
  const simplifying = action.bulky && (run.context.getNodeParameter('simplify', itemIndex, true) as boolean);
  if (action.format) {
    const shown = simplifying ? action.format(answer) : answer;
    return { items: toItems(shown, itemIndex, { redact: run.client.redact }) };
  }
  const simplify = simplifying ? action.simplify : undefined;
  return { items: toItems(answer, itemIndex, { simplify, redact: run.client.redact }) };
}

async function runEach(run: Run): Promise<(Outcome | undefined)[]> {
  const { context, action, client, options } = run;
  const outcomes: (Outcome | undefined)[] = new Array(run.count);
  let stopped = false;
  const readInput = inputReader(context, action);
  const indices = Array.from({ length: run.count }, (_, index) => index);
  await mapWithConcurrency(indices, action.readOnly ? READ_CONCURRENCY : 1, async (index) => {
    if (stopped) return;
    try {
      const input = readInput(index);
      const answer = action.list
        ? await collectList(run, input, index)
        : await action.call(client, input, options);
      outcomes[index] = itemsOf(run, answer, index);
    } catch (error) {
      outcomes[index] = { error };
      if (run.stopOnError && !action.readOnly) stopped = true;
    }
  });
  return outcomes;
}

/** A list's entries, as Return All / Limit ask: paged lists page, others take one call. */
async function collectList(run: Run, input: Record<string, unknown>, index: number): Promise<unknown[]> {
  const { context, action, client } = run;
  const options = {
    returnAll: context.getNodeParameter('returnAll', index, false) as boolean,
    limit: context.getNodeParameter('limit', index, 50) as number,
    callOptions: run.options,
  };
  return action.paging
    ? await collectPages(action, client, input, options)
    : await collectCapped(action, client, input, options);
}

/** Every item's calls are made in the same tick, so the RPC client sends them as JSON-RPC batches. */
async function runRpc(run: Run): Promise<Outcome[]> {
  const { context, action, client, options } = run;
  const clients = new Map<string, RpcClient>();
  const rpcFor = (chain: string): RpcClient => {
    let rpc = clients.get(chain);
    if (!rpc) {
      rpc = createRpcClientWith(client, { chain }, N8N_RPC_TIMERS);
      clients.set(chain, rpc);
    }
    return rpc;
  };
  const readInput = inputReader(context, action);
  const readChain = itemParameter(context, 'chain');
  const pending = Array.from({ length: run.count }, (_, index): Promise<Outcome> => {
    try {
      const rpc = rpcFor(rpcChainOf(readChain(index)));
      return action.call(rpc, readInput(index), options).then(
        (answer) => itemsOf(run, answer, index),
        (error: unknown) => ({ error }),
      );
    } catch (error) {
      return Promise.resolve({ error });
    }
  });
  return await Promise.all(pending);
}

/**
 * A chunked action takes a list the SDK splits into the service's request size. Items that ask
 * the same thing but for their own list are pooled into one SDK call (1,000 items asking one
 * Solana price each: 10 requests, not 1,000), and each item gets back the entries that carry one
 * of its own values, in its order.
 */
async function runChunked(run: Run): Promise<Outcome[]> {
  const { context, action, client, options } = run;
  const field = action.chunking!.field;
  const outcomes: Outcome[] = new Array(run.count);
  const groups = new Map<
    string,
    { base: Record<string, unknown>; members: { index: number; values: string[] }[] }
  >();
  const readInput = inputReader(context, action);
  for (let index = 0; index < run.count; index++) {
    try {
      const input = readInput(index);
      // The SDK's own rules, on this item alone: a bad item fails by itself, naming the field.
      validateInput(action.input, input, { operation: action.id });
      const { [field]: values, ...base } = input;
      const key = JSON.stringify(base);
      const group = groups.get(key) ?? { base, members: [] };
      group.members.push({ index, values: (values as unknown[]).map(String) });
      groups.set(key, group);
    } catch (error) {
      outcomes[index] = { error };
    }
  }
  for (const { base, members } of groups.values()) {
    try {
      const answer = await action.call(
        client,
        { ...base, [field]: members.flatMap((member) => member.values) },
        options,
      );
      const entries = entriesByValue(Array.isArray(answer) ? answer : [answer]);
      const key = answerKeyOf(action);
      for (const member of members) {
        const mine = member.values.map((value) => {
          const entry = entries.get(value);
          return entry === undefined ? { [key]: value, found: false } : { ...entry, found: true };
        });
        outcomes[member.index] = itemsOf(run, mine, member.index);
      }
    } catch (error) {
      for (const member of members) outcomes[member.index] = { error };
    }
  }
  return outcomes;
}

/**
 * The answer's field that names what a chunked value asked about (`tokenAddress` for Solana
 * prices), read from the operation's own example: the field holding one of the example's inputs.
 * A value the service has no answer for comes back under it, with `found: false`, so every asked
 * value keeps its item and merging by position still works.
 */
function answerKeyOf(action: NodeAction): string {
  const field = action.chunking!.field;
  for (const example of action.examples) {
    const asked = (example.input as Record<string, unknown> | undefined)?.[field];
    const answers = Array.isArray(example.response) ? example.response : [example.response];
    for (const entry of answers) {
      if (typeof entry !== 'object' || entry === null) continue;
      const hit = Object.entries(entry).find(([, value]) => Array.isArray(asked) && asked.includes(value));
      if (hit) return hit[0];
    }
  }
  return field;
}

/**
 * Each text an answer entry holds in one of its own fields → the first entry holding it: the entry
 * about an asked value. One pass over the answer, where looking each value up in it was one pass
 * per value (1,000 values priced: a million field comparisons).
 */
function entriesByValue(entries: readonly unknown[]): Map<string, object> {
  const byValue = new Map<string, object>();
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    for (const field of Object.values(entry)) {
      if (typeof field === 'string' && !byValue.has(field)) byValue.set(field, entry);
    }
  }
  return byValue;
}
