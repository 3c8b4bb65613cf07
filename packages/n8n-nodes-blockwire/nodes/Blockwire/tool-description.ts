import {
  describeForAgent,
  type FieldInfo,
  hasShape,
  type JsonSchema,
  outputJsonSchema,
  schemaOfValue,
} from '@blockwire/core/operations';
import type { INodeProperties } from 'n8n-workflow';
import { type NodeAction, RPC_CHAIN_OPTIONS } from './actions';

/** What the description needs of an action: its presentation, and the fields the model fills. */
export type ToolAction = Pick<
  NodeAction,
  'resource' | 'action' | 'summary' | 'client' | 'paging' | 'list' | 'chunking' | 'output'
> &
  Partial<Pick<NodeAction, 'examples'>> & { fields: readonly FieldInfo[] };

/** The parameter n8n reads a tool's description from (`toolDescription`, see its `getToolDescriptionForNode`). */
export const TOOL_DESCRIPTION = 'toolDescription';

/** The node's Chain of JSON-RPC actions, as a field the model fills. */
const RPC_CHAIN_FIELD: Pick<FieldInfo, 'name' | 'description' | 'options' | 'required'> = {
  name: 'chain',
  description: 'The chain whose node answers: a name below, a hex ID (0x89) or a decimal ID (137)',
  options: RPC_CHAIN_OPTIONS,
  required: true,
};

/**
 * What the model is told about one action used as an AI tool: its summary, what it returns (from
 * the response schema), what one call may take, and every field it fills (`fields`: the node's
 * paging fields left out) with what it takes
 * (address formats, chain names) — the SDK's metadata through the same builder as the MCP tools.
 */
export function toolDescriptionOf(action: ToolAction): string {
  const declared = outputJsonSchema(action.output);
  // A schema that transforms (hex quantities to bigints) says nothing of its output: the example does.
  const example = action.examples?.[0]?.response;
  const output = hasShape(declared) || example === undefined ? declared : schemaOfValue(example);
  const listed = action.list
    ? (output.properties as Record<string, JsonSchema> | undefined)?.[action.list.items]
    : output;
  // Each entry of a list (Solana prices, a page of entities) is an n8n item of its own.
  const entry = listed?.type === 'array' ? (listed.items as JsonSchema | undefined) : undefined;
  const limits = action.chunking
    ? [
        `\`${action.chunking.field}\` takes any number; they are sent ${action.chunking.size} a request and each comes back as its own item, \`found: false\` when the service has no answer for it`,
      ]
    : [];
  if (action.paging || action.list)
    limits.push('returns up to Limit results (50 unless set), or all with Return All');
  return describeForAgent({
    summary: action.summary,
    ...(entry ? { returnsIn: 'one item per entry, each' } : {}),
    output: entry ?? output,
    limits,
    fields: [...(action.client === 'rpc' ? [RPC_CHAIN_FIELD] : []), ...action.fields],
  });
}

/**
 * The AI-tool description of every action, as n8n shows it on the tool node (Description, filled
 * in, editable) and hands it to the model: shown only when the node is used as a tool (`@tool`).
 * A node type that has a `toolDescription` parameter gets none of n8n's own (its
 * "Set Automatically" gives only "<action> in Blockwire").
 */
export function toolDescriptionProperties(actions: readonly ToolAction[]): INodeProperties[] {
  return actions.map((action) => ({
    displayName: 'Description',
    name: TOOL_DESCRIPTION,
    type: 'string',
    typeOptions: { rows: 4 },
    default: toolDescriptionOf(action),
    required: true,
    description: 'What the model is told this tool does, returns and takes; generated from the operation',
    displayOptions: { show: { '@tool': [true], resource: [action.resource], operation: [action.action] } },
  }));
}
