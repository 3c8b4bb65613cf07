import {
  type Action,
  type ActionDescription,
  type CallOptions,
  type Client,
  describeAction,
  EVM_CHAINS,
  labelOf,
  rpcChainSegment,
} from '@blockwire/core/operations';
import { actions as entityActions } from '@blockwire/entities';
import { actions as priceActions } from '@blockwire/prices';
import { type RpcClient, actions as rpcActions } from '@blockwire/rpc/operations';
import { actions as streamActions } from '@blockwire/streams/operations';
import type { z } from 'zod/v4';

/**
 * One action of the node, as the SDK describes it (resource, action, display name, summary, every
 * field, paging, chunking) and the SDK function that runs it. Nothing here is written by hand:
 * the node's parameters and its routing are built from these.
 */
export interface NodeAction extends ActionDescription {
  /** Which client `call` takes: the REST client, or a JSON-RPC client for one chain. */
  client: 'rest' | 'rpc';
  /** What `call` accepts, to check each item before a batched call. */
  input: z.ZodType;
  /** A read (HTTP GET, or a JSON-RPC call): items may run side by side. */
  readOnly: boolean;
  /** Its answers can be large (its example holds a list of objects or a long text): offer Simplify. */
  bulky: boolean;
  call(client: Client | RpcClient, input: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
}

function fromTable(table: readonly Action[], client: NodeAction['client']): NodeAction[] {
  return table.map((action) => {
    const description = describeAction(action);
    return {
      ...description,
      client,
      input: action.input,
      readOnly: client === 'rpc' || (action.operation as { method?: string }).method === 'GET',
      bulky: description.examples.some((example) => isBulky(example.response)),
      call: action.call as NodeAction['call'],
    };
  });
}

/** A text this long (a logs bloom, a Merkle proof node) is bulk, not something to read. */
export const LONG_TEXT = 256;

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

/** Every action of the node: the tables of callables the SDK packages export, in their order. */
export const NODE_ACTIONS: readonly NodeAction[] = [
  ...fromTable(priceActions as unknown as readonly Action[], 'rest'),
  ...fromTable(entityActions as unknown as readonly Action[], 'rest'),
  ...fromTable(streamActions as unknown as readonly Action[], 'rest'),
  ...fromTable(rpcActions as unknown as readonly Action[], 'rpc'),
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
  name: chain.name,
  value: rpcChainSegment(chain),
}));
