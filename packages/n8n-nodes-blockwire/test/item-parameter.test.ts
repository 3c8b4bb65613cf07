import {
  type IDataObject,
  type IExecuteFunctions,
  type INode,
  type INodeExecutionData,
  type INodeParameters,
  type INodeTypes,
  Workflow,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { itemParameter, oneItemField } from '../nodes/Blockwire/item-parameter';
import { credentialsFor, useEmulator } from './support/emulator';
import { executeContext } from './support/n8n-context';
import { solanaAddresses, USDC, WRAPPED_SOL } from './support/solana';

const blockwire = new Blockwire();

/**
 * `this` of the Blockwire node as n8n makes it, for parameters: the node's raw parameters and its
 * input items, and getNodeParameter evaluating with n8n-workflow's own expression code (as n8n's
 * getNodeParameter does, for a node declaring no `validateType`). Counts the evaluations.
 */
function n8nContext(parameters: INodeParameters, items: INodeExecutionData[]) {
  const node: INode = {
    id: 'b1',
    name: 'Blockwire',
    type: 'CUSTOM.blockwire',
    typeVersion: 1,
    position: [0, 0],
    parameters,
  };
  const nodeTypes = {
    getByName: () => blockwire,
    getByNameAndVersion: () => blockwire,
    getKnownTypes: () => ({}),
  } as unknown as INodeTypes;
  const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
  const evaluated: string[] = [];
  const context = {
    getNode: () => workflow.getNode(node.name)!,
    getInputData: () => items,
    getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
      evaluated.push(`${name}[${itemIndex}]`);
      const raw = workflow.getNode(node.name)!.parameters[name] ?? fallback;
      if (raw === undefined) throw new Error(`Could not get parameter "${name}"`);
      return workflow.expression.getParameterValue(
        raw as INodeParameters[string],
        null,
        0,
        itemIndex,
        node.name,
        items,
        'manual',
        {},
      );
    },
  } as unknown as IExecuteFunctions;
  return { context, evaluated };
}

const solana = (addresses: unknown) =>
  ({ resource: 'tokenPrice', operation: 'getSolana', addresses }) as INodeParameters;
const itemsOf = (values: IDataObject[]) => values.map((json) => ({ json }));

/** Every item's value through itemParameter, and through getNodeParameter (n8n's evaluation). */
function bothWays(raw: unknown, items: INodeExecutionData[]) {
  const fast = n8nContext(solana(raw), items);
  const read = itemParameter(fast.context, 'addresses');
  const values = items.map((_, index) => read(index));
  const slow = n8nContext(solana(raw), items);
  const expected = items.map((_, index) => slow.context.getNodeParameter('addresses', index));
  return { values, expected, evaluated: fast.evaluated };
}

describe('a parameter that is one field of the item is read from the item (issue 24)', () => {
  const items = itemsOf([
    { address: USDC },
    { address: WRAPPED_SOL },
    { address: 42 },
    { address: false },
    { address: '' },
  ]);

  for (const raw of [
    '={{ $json.address }}',
    '={{$json.address}}',
    '={{ $json["address"] }}',
    "={{ $json['address'] }}",
    '={{\n  $json.address\n}}',
    '={{ $json [ "address" ] }}',
  ]) {
    it(`${JSON.stringify(raw)}: the values n8n gives, item by item, without evaluating the expression`, () => {
      const { values, expected, evaluated } = bothWays(raw, items);
      expect(values).toEqual([USDC, WRAPPED_SOL, 42, false, '']);
      expect(values).toEqual(expected);
      expect(evaluated).toEqual([]);
    });
  }

  it('a key that needs brackets ("token address") is read from the item too', () => {
    const { values, expected, evaluated } = bothWays(
      '={{ $json["token address"] }}',
      itemsOf([{ 'token address': USDC }, { 'token address': WRAPPED_SOL }]),
    );
    expect(values).toEqual([USDC, WRAPPED_SOL]);
    expect(values).toEqual(expected);
    expect(evaluated).toEqual([]);
  });

  it('an item without the field, or holding null, an object or a list there, is evaluated by n8n, alone', () => {
    const mixed = itemsOf([
      { address: USDC },
      { other: 1 },
      { address: null },
      { address: [USDC, WRAPPED_SOL] },
      { address: { nested: USDC } },
      { address: WRAPPED_SOL },
    ]);
    const { values, expected, evaluated } = bothWays('={{ $json.address }}', mixed);
    expect(values).toEqual(expected);
    expect(values[3]).toEqual([USDC, WRAPPED_SOL]);
    expect(evaluated).toEqual(['addresses[1]', 'addresses[2]', 'addresses[3]', 'addresses[4]']);
  });

  it('a field inherited rather than the item’s own (toString) is evaluated by n8n, which refuses it', () => {
    const { context, evaluated } = n8nContext(solana('={{ $json.toString }}'), itemsOf([{ address: USDC }]));
    expect(() => itemParameter(context, 'addresses')(0)).toThrow('this is a function, please add ()');
    expect(evaluated).toEqual(['addresses[0]']);
  });

  for (const raw of [
    '={{ $json.address.trim() }}',
    '={{ $json.token.address }}',
    '={{ $json.address + "" }}',
    '={{ $json.address }} ',
    '= {{ $json.address }}',
    '=x{{ $json.address }}',
    '={{ $json.address }}{{ $json.address }}',
    '={{ $json.address || "none" }}',
    '={{ $item(0).$json.address }}',
    '={{ $input.item.json.address }}',
    '={{ $json[`address`] }}',
    '={{ $json["address\\u0020"] }}',
    '{{ $json.address }}',
    USDC,
  ]) {
    it(`${JSON.stringify(raw)}: evaluated by n8n for every item, as before`, () => {
      const items = itemsOf([{ address: USDC, token: { address: WRAPPED_SOL } }, { address: WRAPPED_SOL }]);
      const { values, expected, evaluated } = bothWays(raw, items);
      expect(values).toEqual(expected);
      expect(evaluated).toEqual(['addresses[0]', 'addresses[1]']);
    });
  }

  it('names n8n’s sandbox refuses are never read from the item', () => {
    for (const name of ['constructor', '__proto__', 'prototype', 'mainModule', 'getPrototypeOf']) {
      expect(oneItemField(`={{ $json.${name} }}`)).toBeUndefined();
      expect(oneItemField(`={{ $json["${name}"] }}`)).toBeUndefined();
    }
    expect(oneItemField('={{ $json.address }}')).toBe('address');
    expect(oneItemField(['={{ $json.address }}'])).toBeUndefined();
  });

  it('holds for the Blockwire node because none of its parameters asks n8n to validate a type', () => {
    const properties = blockwire.description.properties;
    expect(properties.length).toBeGreaterThan(10);
    expect(properties.filter((property) => property.validateType !== undefined)).toEqual([]);
  });
});

describe('the node gives the same items with the item read directly (issue 24)', () => {
  const service = useEmulator();

  async function priced(raw: string, items: INodeExecutionData[]) {
    const { context, evaluated } = n8nContext(solana(raw), items);
    const { execute } = executeContext({ parameters: {}, credentials: credentialsFor(service.emulator) });
    const [output] = await blockwire.execute.call({
      ...execute,
      getNode: context.getNode,
      getInputData: context.getInputData,
      getNodeParameter: context.getNodeParameter,
    } as IExecuteFunctions);
    return { output, evaluated: evaluated.filter((name) => name.startsWith('addresses')) };
  }

  it('300 items of one address each, and of lists: the output of `{{ $json.address }}` is that of an expression n8n evaluates', async () => {
    const addresses = solanaAddresses(300);
    addresses[7] = USDC;
    addresses[250] = WRAPPED_SOL;
    const items = itemsOf(
      addresses.map((address, index) =>
        index === 100
          ? { address: `${address}, ${USDC}` }
          : index === 101
            ? { address: [address] }
            : { address },
      ),
    );
    const fast = await priced('={{ $json.address }}', items);
    const slow = await priced('={{ $json.address || "" }}', items);
    expect(fast.output).toEqual(slow.output);
    expect(fast.output).toHaveLength(301);
    expect(fast.output?.[7]?.json).toMatchObject({ tokenAddress: USDC, found: true });
    expect(fast.evaluated).toEqual(['addresses[101]']); // the list: n8n evaluates it
    expect(slow.evaluated).toHaveLength(300);
  });
});
