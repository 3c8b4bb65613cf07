import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { buildTools } from '../packages/mcp/src/tools.ts';
import { NODE_ACTIONS } from '../packages/n8n-nodes-blockwire/nodes/Blockwire/actions';
import { Blockwire } from '../packages/n8n-nodes-blockwire/nodes/Blockwire/Blockwire.node';

// The two hosts built from the SDK's tables: the n8n node's operations and the MCP server's tools.
// Each reads what an operation declares; here they are held to agree on every operation.
const tools = buildTools();
const toolsById = new Map(tools.map((tool) => [tool.action.id, tool]));
const nodeProperties = new Blockwire().description.properties;

/** What the n8n node asks for one operation, by input name: its parameters and a collection's options. */
function nodeParameters(resource: string, operation: string): string[] {
  const names: string[] = [];
  for (const property of nodeProperties) {
    const show = property.displayOptions?.show ?? {};
    if (!(show.resource as string[] | undefined)?.includes(resource)) continue;
    if (!(show.operation as string[] | undefined)?.includes(operation)) continue;
    if (property.type === 'collection') {
      for (const option of (property.options ?? []) as INodeProperties[]) names.push(option.name);
    } else names.push(property.name);
  }
  return names.sort();
}

/**
 * Parameters only the node has: how many entries to return, Simplify, the chain a JSON-RPC call
 * goes to, and the description the tool node gives the model (an MCP tool's is its definition's).
 */
const NODE_ONLY = new Set(['returnAll', 'limit', 'simplify', 'chain', 'toolDescription']);
/** Inputs only an MCP tool has: the chain of a JSON-RPC call, and how much of the answer to keep. */
const TOOL_ONLY = new Set(['chain', 'detail']);

describe('the n8n node and the MCP server', () => {
  it('offer the same operations, in the same order', () => {
    expect(NODE_ACTIONS.map((action) => action.id)).toEqual(tools.map((tool) => tool.action.id));
  });

  it.each(NODE_ACTIONS.map((action) => [action.id, action] as const))(
    '%s: the same read-only-ness and the same inputs',
    (id, action) => {
      const tool = toolsById.get(id)!;
      expect(tool.readOnly, 'read-only').toBe(action.readOnly);
      expect(tool.definition.annotations.readOnlyHint, 'readOnlyHint').toBe(action.readOnly);

      const toolInputs = Object.keys(tool.definition.inputSchema.properties ?? {}).filter(
        (name) => !TOOL_ONLY.has(name),
      );
      // The node pages for the user (Return All / Limit): the paging fields are its own business.
      const paging = action.paging;
      const pagingFields = new Set(
        paging ? [paging.style === 'cursor' ? paging.cursorField : paging.pageField, paging.limitField] : [],
      );
      const nodeInputs = nodeParameters(action.resource, action.action).filter(
        (name) => !NODE_ONLY.has(name),
      );
      expect(
        nodeInputs.filter((name) => !toolInputs.includes(name)),
        'only in n8n',
      ).toEqual([]);
      expect(
        toolInputs.filter(
          (name) => !nodeInputs.includes(name) && !pagingFields.has(name) && name !== 'limit',
        ),
        'only in MCP',
      ).toEqual([]);

      const toolRequired = new Set((tool.definition.inputSchema.required ?? []) as string[]);
      const nodeRequired = action.fields.filter((field) => field.required).map((field) => field.name);
      expect(
        nodeRequired.filter((name) => !toolRequired.has(name)),
        'required in n8n only',
      ).toEqual([]);
    },
  );

  it('the read-only server offers exactly the operations the node runs as reads', () => {
    const readOnlyTools = buildTools({ readOnly: true }).map((tool) => tool.action.id);
    expect(readOnlyTools).toEqual(
      NODE_ACTIONS.filter((action) => action.readOnly).map((action) => action.id),
    );
    // The POSTs that only read (their inputs are long) are among them; every write is not.
    expect(readOnlyTools).toEqual(
      expect.arrayContaining(['getSolanaTokenPrices', 'getBitcoinBlockWebhookData']),
    );
    expect(readOnlyTools).not.toContain('createBitcoinStream');
  });
});
