import { type INode, type INodeType, type INodeTypeDescription, NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS } from '../nodes/Blockwire/actions';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { userFields } from '../nodes/Blockwire/description';
import { TOOL_DESCRIPTION } from '../nodes/Blockwire/tool-description';

const node = new Blockwire();

/**
 * The node type n8n makes of a `usableAsTool` node (n8n 2.41's `convertNodeToAiTool`): the same
 * description named `…Tool`, with n8n's own Tool Description parameters added only when the node
 * has no `toolDescription` parameter of its own.
 */
function asTool(description: INodeTypeDescription): INodeType {
  const copy = structuredClone({ ...description }) as INodeTypeDescription;
  copy.name += 'Tool';
  if (!copy.properties.some((property) => property.name === 'toolDescription')) {
    copy.properties.push({
      displayName: 'Description',
      name: 'toolDescription',
      type: 'string',
      default: copy.description,
    });
  }
  return { description: copy } as INodeType;
}

/** What n8n hands the model for a tool node of this resource and operation (its `getToolDescriptionForNode`). */
function modelSees(resource: string, operation: string): string {
  const tool = asTool(node.description);
  const parameters = NodeHelpers.getNodeParameters(
    tool.description.properties,
    { resource, operation },
    true,
    false,
    { typeVersion: 2 },
    tool.description,
  );
  const toolNode = {
    name: 'Blockwire',
    typeVersion: 2,
    type: 'CUSTOM.blockwireTool',
    parameters,
  } as unknown as INode;
  return NodeHelpers.getToolDescriptionForNode(toolNode, tool);
}

describe('the AI-tool description, generated from the operation', () => {
  it('is what n8n gives the model: not "<action> in Blockwire", but what it returns, its fields, chain names and address formats', () => {
    const text = modelSees('tokenPrice', 'getEvm');
    expect(text).not.toBe('Get an EVM token price in Blockwire');
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Get the USD price of an ERC-20 token on an EVM chain, now or at a past block.',
      expect.stringMatching(/^Returns: an object \(usdPrice, .*tokenName/),
    ]);
    expect(text).toContain('`address`: The token contract address: 0x and 40 hex digits, in any case.');
    expect(text).toMatch(/`chain` \(optional\): .*Names: eth, sepolia, polygon, /);
  });

  it('says the limits: Solana prices take any number, 100 a request, one item each', () => {
    const text = modelSees('tokenPrice', 'getSolana');
    expect(text).toMatch(/^Returns one item per entry, each: an object \(tokenAddress, /m);
    expect(text).toMatch(/Per call: `addresses` takes any number; they are sent 100 a request/);
    expect(text).toMatch(/`addresses`: The token mint addresses \(base58\)/);
  });

  it('JSON-RPC and wallet tools name the chains their Chain takes; lists say Limit and Return All', () => {
    expect(modelSees('wallet', 'getBalance')).toMatch(/`chain`: .*Names: eth, .*bsc-testnet, /);
    const search = modelSees('entity', 'search');
    expect(search).toContain('returns up to Limit results (50 unless set), or all with Return All');
    expect(search).not.toContain('`limit`'); // the node's Limit, not a field the model fills
  });

  it('every action has one, built from its own summary and fields; the plain node shows none', () => {
    const own = node.description.properties.filter((property) => property.name === TOOL_DESCRIPTION);
    expect(own).toHaveLength(NODE_ACTIONS.length);
    for (const action of NODE_ACTIONS) {
      const text = modelSees(action.resource, action.action);
      expect(text.startsWith(action.summary.replace(/\.$/, '')), action.id).toBe(true);
      expect(text, action.id).toMatch(/\nReturns( one item per entry, each)?: /);
      for (const field of userFields(action))
        expect(text, `${action.id}.${field.name}`).toContain(`\`${field.name}\``);
    }
    const plain = NodeHelpers.getNodeParameters(
      node.description.properties,
      { resource: 'tokenPrice', operation: 'getEvm' },
      true,
      false,
      { typeVersion: 2 },
      node.description,
    );
    expect(plain).not.toHaveProperty(TOOL_DESCRIPTION);
  });

  it('a description the user wrote on the tool node is what the model gets', () => {
    const tool = asTool(node.description);
    const toolNode = {
      name: 'Blockwire',
      typeVersion: 2,
      type: 'CUSTOM.blockwireTool',
      parameters: { resource: 'tokenPrice', operation: 'getEvm', toolDescription: 'Prices tokens' },
    } as unknown as INode;
    expect(NodeHelpers.getToolDescriptionForNode(toolNode, tool)).toBe('Prices tokens');
  });
});
