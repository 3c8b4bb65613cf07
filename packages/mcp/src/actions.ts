/**
 * The one place this package reads the SDK's tables of actions. Everything else (the tools, their
 * schemas, the README table) is built from `MCP_ACTIONS`; if the tables change shape, only this
 * module changes.
 */
import {
  type Action,
  type ActionDescription,
  type CallOptions,
  type Client,
  describeAction,
  describeFields,
  type Example,
  fieldsIn,
  inputJsonSchema,
  type JsonSchema,
  type RestAction,
} from '@blockwire/core';
import { actions as entityActions } from '@blockwire/entities/operations';
import { actions as priceActions } from '@blockwire/prices/operations';
import { createRpcClient, type RpcClient } from '@blockwire/rpc';
import {
  type RpcAction,
  actions as rpcActions,
  type WalletRead,
  walletOperationId,
  walletReads,
} from '@blockwire/rpc/operations';
import { actions as streamActions } from '@blockwire/streams/operations';
import * as z from 'zod/v4';

export interface McpAction extends Omit<ActionDescription, 'examples'> {
  /** The operation's examples; a wallet read's inputs, whose answers come from the chain (`response: null`). */
  examples: readonly Example[];
  /**
   * Inputs this tool takes, one per example of the operation. Where the action takes more than one
   * request (a list it sends one by one) and refuses the operation's example, the example is
   * rebuilt from the action's own field examples, keeping the values of the fields they share.
   */
  exampleInputs: Record<string, unknown>[];
  /** The action's input as JSON Schema; JSON-RPC methods also take the `chain` to call. */
  inputSchema: JsonSchema;
  /**
   * The schema of one call's answer (REST response or JSON-RPC result); `undefined` when the action
   * makes several requests from one input (a list of addresses) and answers with their results.
   */
  output: z.core.$ZodType | undefined;
  /**
   * Where a REST operation sends each of its fields (`path`, `query`, `body`); `undefined` for
   * JSON-RPC (all in the body). A field of the action not in the map is sent one request each.
   */
  placements: ReadonlyMap<string, string> | undefined;
  /** HTTP method of a REST operation; `undefined` for JSON-RPC. */
  method: string | undefined;
  // `readOnly` comes with the SDK's description: the operation declares it (see `Presentation`).
  /** Safe to send twice (the operation's own `idempotent`). */
  idempotent: boolean;
  /** Runs the SDK function with the REST client (JSON-RPC: through a client for `input.chain`). */
  call(client: Client, input: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
}

/** The chain a JSON-RPC tool calls when none is given. */
export const DEFAULT_RPC_CHAIN = 'eth';

const RPC_CHAIN_SCHEMA: JsonSchema = {
  type: 'string',
  default: DEFAULT_RPC_CHAIN,
  description:
    'The chain to call, by name as the node interface spells it (eth, polygon, base, bsc-testnet, …) or by id.',
};

function exampleInputsOf(action: Action, inputSchema: JsonSchema): Record<string, unknown>[] {
  const properties = (inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  return action.operation.examples.map(({ input }) => {
    if (z.safeParse(action.input, input).success) return input;
    const rebuilt: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(properties)) {
      if (name in input) rebuilt[name] = input[name];
      else if (Array.isArray(field.examples) && field.examples.length > 0) rebuilt[name] = field.examples[0];
    }
    return rebuilt;
  });
}

function restAction(action: RestAction): McpAction {
  const { operation } = action;
  const inputSchema = inputJsonSchema(action.input);
  return {
    ...describeAction(action),
    exampleInputs: exampleInputsOf(action, inputSchema),
    inputSchema,
    output: action.input === operation.input ? operation.response : undefined,
    placements: new Map(fieldsIn(operation).map((p) => [p.field, p.in])),
    method: operation.method,
    idempotent: operation.idempotent,
    call: (client, input, options) => action.call(client, input, options),
  };
}

/** One JSON-RPC client per REST client and chain, made on first use (it batches calls made together). */
function rpcClients(): (client: Client, chain: string) => RpcClient {
  const byClient = new WeakMap<Client, Map<string, RpcClient>>();
  return (client, chain) => {
    const byChain = byClient.get(client) ?? new Map<string, RpcClient>();
    byClient.set(client, byChain);
    let rpc = byChain.get(chain);
    if (!rpc) {
      rpc = createRpcClient(client, { chain });
      byChain.set(chain, rpc);
    }
    return rpc;
  };
}

/** A JSON-RPC input schema with the `chain` to call in front. */
function withChain(params: JsonSchema): JsonSchema {
  const properties = { chain: RPC_CHAIN_SCHEMA, ...((params.properties ?? {}) as JsonSchema) };
  return { ...params, type: 'object', properties };
}

function rpcAction(action: RpcAction): McpAction {
  const params = inputJsonSchema(action.input);
  const rpcFor = rpcClients();
  return {
    ...describeAction(action),
    exampleInputs: exampleInputsOf(action, params),
    inputSchema: withChain(params),
    output: action.operation.result,
    placements: undefined,
    method: undefined,
    idempotent: true,
    call: (client, input, options) => {
      const { chain = DEFAULT_RPC_CHAIN, ...params } = input;
      return action.call(rpcFor(client, String(chain)), params, options);
    },
  };
}

/** A wallet read's tool name: its operation id (`walletGetTokenBalance`). */
export const walletToolName = walletOperationId;

/** A wallet read as a tool: it answers with the read's formatted values, the raw ones under `raw`. */
function walletAction(read: WalletRead): McpAction {
  const params = inputJsonSchema(read.input);
  const rpcFor = rpcClients();
  const fields = describeFields(read.input);
  return {
    id: walletToolName(read),
    resource: 'wallet',
    action: read.id,
    displayName: read.displayName,
    summary: read.description,
    examples: read.examples.map((input) => ({ input, response: null })),
    fields,
    exampleInputs: [...read.examples] as Record<string, unknown>[],
    inputSchema: withChain(params),
    output: read.simplified,
    placements: undefined,
    method: undefined,
    readOnly: read.readOnly,
    idempotent: true,
    call: async (client, input, options) => {
      const { chain = DEFAULT_RPC_CHAIN, ...params } = input;
      return read.simplify(await read.run(rpcFor(client, String(chain)), params, options));
    },
  };
}

export const MCP_ACTIONS: readonly McpAction[] = [
  ...priceActions.map(restAction),
  ...entityActions.map(restAction),
  ...streamActions.map(restAction),
  ...rpcActions.map(rpcAction),
  ...walletReads.map(walletAction),
];
