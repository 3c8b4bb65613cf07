import {
  type ActionDescription,
  type CallOptions,
  type Client,
  describeAction,
  describeFields,
  EVM_CHAINS,
  type Example,
  labelOf,
  nearest,
  type RestAction,
  rpcChainSegment,
  suggestChain,
} from '@blockwire/core/operations';
import { actions as entityActions } from '@blockwire/entities/operations';
import { actions as priceActions } from '@blockwire/prices/operations';
import {
  type RpcAction,
  type RpcClient,
  actions as rpcActions,
  type WalletRead,
  walletOperationId,
  walletReads,
} from '@blockwire/rpc/operations';
import { actions as streamActions } from '@blockwire/streams/operations';
import type * as z from 'zod/v4/core';
import { chainLabel, chainTitle } from '../shared/chain-label';
import { entriesOf, type ListShape } from './list';
import { LONG_TEXT, type SimplifyPlan, simplifyPlanOf } from './output';

export { chainLabel };

/**
 * One action of the node, as the SDK describes it (resource, action, display name, summary, every
 * field, paging, chunking) and the SDK function that runs it. Nothing here is written by hand:
 * the node's parameters and its routing are built from these.
 */
export interface NodeAction extends Omit<ActionDescription, 'examples'> {
  /** The operation's examples; none for a wallet read, whose answers come from the chain. */
  examples: readonly Example[];
  /** Which client `call` takes: the REST client, or a JSON-RPC client for one chain. */
  client: 'rest' | 'rpc';
  /** What `call` accepts, to check each item before a batched call. */
  input: z.$ZodType;
  /** `readOnly` (from the SDK's description): a read, so items may run side by side. */
  /** Its answers can be large (its example holds a list of objects or a long text): offer Simplify. */
  bulky: boolean;
  /** What Simplify counts and drops for this action, whatever one answer holds. */
  simplify: SimplifyPlan;
  /** Where a list answer holds its entries, each of which becomes an n8n item of its own. */
  list?: ListShape;
  /**
   * What Simplify does instead of the plan, when the SDK formats the answer itself (a wallet
   * read: wei as ETH, token units, gwei; the raw values under `raw`).
   */
  format?: (answer: unknown) => unknown;
  /** The schema of one answer (a REST response, a JSON-RPC result, a wallet read's simplified values). */
  output?: z.$ZodType;
  call(client: Client | RpcClient, input: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
}

export type { ListShape };

function fromTable(table: readonly (RestAction | RpcAction)[], client: NodeAction['client']): NodeAction[] {
  return table.map((action) => {
    const description = describeAction(action);
    const list = listShapeOf(description);
    // Simplify works on one output item: a list's entry, an array's element, or the answer.
    const answers = description.examples.flatMap((example): unknown[] => {
      if (list) return entriesOf(example.response, list);
      return Array.isArray(example.response) ? example.response : [example.response];
    });
    const { operation } = action;
    const answer = 'response' in operation ? operation.response : operation.result;
    return {
      ...description,
      client,
      input: action.input,
      bulky: answers.some((answer) => isBulky(answer)),
      simplify: simplifyPlanOf(list ? undefined : answer, answers),
      ...withList(list),
      ...withOutput(answer),
      call: action.call as NodeAction['call'],
    };
  });
}

/** The key under which the service's list answers carry their entries (`{ result, page, page_size }`). */
const LIST_ENVELOPE = 'result';
/** The input that caps a list the service does not page: "the most results to return". */
const SIZE_FIELD = 'limit';

function withList(list: ListShape | undefined): { list?: ListShape } {
  return list ? { list } : {};
}

function withOutput(output: z.$ZodType | undefined): { output?: z.$ZodType } {
  return output ? { output } : {};
}

/**
 * Where an action's answer holds its entries, read from the paging metadata or else from the
 * operation's examples: an envelope `{ result: [...] }` or `{ result: { kind: [...], … } }` beside
 * nothing but scalars (the page number and size) is a list.
 */
export function listShapeOf(
  action: Pick<NodeAction, 'paging' | 'examples' | 'fields'>,
): ListShape | undefined {
  if (action.paging) {
    return {
      items: action.paging.items,
      ...(action.paging.limitField ? { sizeField: action.paging.limitField } : {}),
    };
  }
  const sizeField = action.fields.some(
    (field) => field.name === SIZE_FIELD && field.type === 'number' && !field.required,
  )
    ? { sizeField: SIZE_FIELD }
    : {};
  for (const { response } of action.examples) {
    if (!isPlainObject(response) || !(LIST_ENVELOPE in response)) continue;
    const { [LIST_ENVELOPE]: entries, ...rest } = response;
    if (Object.values(rest).some((value) => typeof value === 'object' && value !== null)) continue;
    if (Array.isArray(entries)) return { items: LIST_ENVELOPE, ...sizeField };
    if (isPlainObject(entries) && Object.values(entries).every(Array.isArray)) {
      const kinds = Object.keys(entries).map((key) => ({ key, kind: singular(key) }));
      return { items: LIST_ENVELOPE, kinds, ...sizeField };
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `entities` → `entity`, `addresses` → `address`, `categories` → `category`. */
function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** Whether a value holds a list of objects or a long text, at any depth. */
export function isBulky(value: unknown, depth = 0): boolean {
  if (depth > 8) return false;
  if (typeof value === 'string') return value.length > LONG_TEXT;
  if (Array.isArray(value)) {
    return value.some((entry) => (typeof entry === 'object' && entry !== null) || isBulky(entry, depth + 1));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some((entry) => isBulky(entry, depth + 1));
  }
  return false;
}

/** The resource the SDK's wallet reads (balances, contract reads, decoded logs, gas) are under. */
export const WALLET_RESOURCE = 'wallet';

/**
 * The SDK's wallet reads as actions: JSON-RPC calls of one chain, so every item's calls go out
 * together as JSON-RPC batches; Simplify gives the read's own formatted values.
 */
function fromWalletReads(reads: readonly WalletRead[]): NodeAction[] {
  return reads.map((read) => ({
    id: walletOperationId(read),
    resource: WALLET_RESOURCE,
    action: read.id,
    displayName: read.displayName,
    summary: read.description,
    examples: [],
    fields: describeFields(read.input),
    client: 'rpc',
    input: read.input,
    readOnly: read.readOnly,
    bulky: true,
    simplify: simplifyPlanOf(undefined, []),
    format: (answer) => read.simplify(answer),
    ...withOutput(read.simplified),
    call: (rpc, input, options) => read.run(rpc as RpcClient, input, options),
  }));
}

/** Every action of the node: the tables of callables the SDK packages export, in their order. */
export const NODE_ACTIONS: readonly NodeAction[] = [
  ...fromTable(priceActions, 'rest'),
  ...fromTable(entityActions, 'rest'),
  ...fromTable(streamActions, 'rest'),
  ...fromTable(rpcActions, 'rpc'),
  ...fromWalletReads(walletReads),
];

/** How a resource is labelled in the Resource dropdown: its name, spelled out. */
export function resourceLabel(resource: string): string {
  return resource === 'rpc' ? 'JSON-RPC' : labelOf(resource);
}

/**
 * The JSON-RPC node interface takes the chain as a path segment: the registry's names with
 * hyphens (`bsc-testnet`). The dropdown offers them; an expression may give a name, a hex or
 * decimal id (resolved through the registry), or any other segment the service serves.
 */
export const RPC_CHAIN_OPTIONS = EVM_CHAINS.map((chain) => ({
  name: chainLabel(chain.name),
  value: rpcChainSegment(chain),
}));

/**
 * The dropdown label of the chain a mistyped one most likely means: by the registry's names and
 * the common ones (`etherum`, `matic`), else by the names the dropdown shows (`bnb smart`).
 */
export function suggestedChainLabel(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const known = suggestChain(input);
  if (known) return chainLabel(known.name);
  const titles = new Map(EVM_CHAINS.map((chain) => [chainTitle(chain.name), chain.name]));
  const title = nearest(input.trim(), [...titles.keys()]);
  return title === undefined ? undefined : chainLabel(titles.get(title)!);
}

/** An unknown chain, answered in the dropdown's words: `unknown chain "etherum" (did you mean "Ethereum (0x1)"?) …`. */
export function unknownChainText(input: unknown): string {
  const suggestion = suggestedChainLabel(input);
  const shown = JSON.stringify(String(input).slice(0, 40));
  return `unknown chain ${shown}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; pick one from the Chain list or give its chain ID (0x89 or 137)`;
}
