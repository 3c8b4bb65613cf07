import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { rpcChainOf } from '../nodes/Blockwire/parameters';
import { BlockwirePriceTrigger } from '../nodes/BlockwirePriceTrigger/BlockwirePriceTrigger.node';
import { BlockwireTrigger } from '../nodes/BlockwireTrigger/BlockwireTrigger.node';

/**
 * n8n's wording rules (its node linter's), checked on the GENERATED descriptions, which the static
 * linter never sees (issue 21, points 5 and 7).
 */
const NODES: INodeTypeDescription[] = [
  new Blockwire().description,
  new BlockwireTrigger().description,
  new BlockwirePriceTrigger().description,
];

/** Every parameter, nested collection options included, with where it sits. */
function everyParameter(properties: readonly INodeProperties[], path = ''): [string, INodeProperties][] {
  return properties.flatMap((property) => {
    const here = `${path}${property.name}`;
    const nested = (property.options ?? []).filter((option) => 'displayName' in option) as INodeProperties[];
    return [[here, property] as [string, INodeProperties], ...everyParameter(nested, `${here}.`)];
  });
}

const SAMPLES = [
  'Get Entity',
  'Search Entities',
  'Get EVM Token Price',
  'Get Solana Token Prices',
  'Get Many Bitcoin Streams',
  'Add Xpub',
  'Remove Address',
  'Set Bitcoin Stream Status',
  'Get Block Webhook Data',
  'Estimate Gas',
  'Get Block by Hash',
  'Get Max Priority Fee per Gas',
  'Read Contract',
];
const PROPER_NOUNS = new Set(['Bitcoin', 'Solana', 'Ethereum', 'Merkle']);
const parameters = NODES.flatMap((node) => everyParameter(node.properties));
const choices = (property: INodeProperties) =>
  ((property.options ?? []) as INodePropertyOptions[]).filter((option) => !('displayName' in option));

describe("n8n's wording on the generated descriptions (issue 21, point 7)", () => {
  it('action texts are in sentence case', () => {
    const miscased = parameters
      .filter(([, property]) => property.name === 'operation')
      .flatMap(([, property]) => choices(property).map((option) => String(option.action)))
      .filter((action) =>
        action
          .split(' ')
          .slice(1)
          .some((word) => /^[A-Z][a-z]+$/.test(word) && !PROPER_NOUNS.has(word)),
      );
    expect(miscased).toEqual([]);
  });

  it("action texts take an article where n8n's own nodes do (Airtable: Get a record, Search records)", () => {
    const actions = new Map(
      parameters
        .filter(([, property]) => property.name === 'operation')
        .flatMap(([, property]) =>
          choices(property).map((option) => [option.name, String(option.action)] as const),
        ),
    );
    expect(Object.fromEntries([...actions].filter(([name]) => SAMPLES.includes(name)))).toEqual({
      'Get Entity': 'Get an entity',
      'Search Entities': 'Search entities',
      'Get EVM Token Price': 'Get an EVM token price',
      'Get Solana Token Prices': 'Get Solana token prices',
      'Get Many Bitcoin Streams': 'Get many Bitcoin streams',
      'Add Xpub': 'Add an xpub',
      'Remove Address': 'Remove an address',
      'Set Bitcoin Stream Status': 'Set a Bitcoin stream status',
      'Get Block Webhook Data': 'Get block webhook data',
      'Estimate Gas': 'Estimate gas',
      'Get Block by Hash': 'Get a block by hash',
      'Get Max Priority Fee per Gas': 'Get a max priority fee per gas',
      'Read Contract': 'Read a contract',
    });
  });

  it('operations, options and collections list their entries alphabetically', () => {
    const unsorted = parameters
      .filter(([, property]) => ['options', 'multiOptions', 'collection'].includes(property.type))
      .filter(([, property]) => {
        const names = (property.options ?? []).map((option) =>
          'displayName' in option ? String(option.displayName) : String(option.name),
        );
        return names.join('\n') !== [...names].sort((a, b) => a.localeCompare(b)).join('\n');
      })
      .map(([path]) => path);
    expect(unsorted).toEqual([]);
  });

  it('boolean parameters are described "Whether …"', () => {
    const off = parameters
      .filter(
        ([, property]) => property.type === 'boolean' && !String(property.description).startsWith('Whether'),
      )
      .map(([path, property]) => `${path}: ${property.description}`);
    expect(off).toEqual([]);
  });

  it('one-sentence descriptions end without a period', () => {
    const texts = parameters.flatMap(([path, property]) => [
      [path, property.description],
      ...choices(property).map((option) => [`${path}=${option.value}`, option.description]),
    ]);
    const ending = texts
      .filter(([, text]) => typeof text === 'string' && text.endsWith('.') && !/[.!?] /.test(text))
      .map(([path, text]) => `${path}: ${text}`);
    expect(ending).toEqual([]);
  });
});

describe('chains by name and id (issue 21, point 5)', () => {
  const chainParameters = parameters.filter(([, property]) => property.name === 'chain');

  it('every chain dropdown reads like "Ethereum (0x1)" and keeps its value', () => {
    expect(chainParameters.length).toBeGreaterThanOrEqual(2);
    for (const [path, property] of chainParameters) {
      const ethereum = choices(property).find((option) => option.value === 'eth');
      expect(ethereum?.name, path).toBe('Ethereum (0x1)');
      for (const option of choices(property)) expect(option.name, path).toMatch(/^[A-Z].* \(0x[0-9a-f]+\)$/);
    }
  });

  it('an expression may still give a name or a hex id', () => {
    expect(rpcChainOf('0x89')).toBe('polygon');
    expect(rpcChainOf('bsc testnet')).toBe('bsc-testnet');
  });
});
