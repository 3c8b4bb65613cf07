import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { EVM_CHAINS } from './chains.js';
import {
  checkPresentation,
  defineAction,
  describeAction,
  describeFields,
  inputJsonSchema,
  labelOf,
  type Presentation,
  undocumentedFields,
} from './metadata.js';
import { evmAddress, evmChain, nonNegativeInteger, numberLike, withMeta } from './schemas.js';

const doc = (description: string) => ({ description });

const input = z.strictObject({
  address: evmAddress,
  chain: z.optional(evmChain),
  toBlock: z.optional(withMeta(nonNegativeInteger, doc('Block to read at'))),
  ratio: withMeta(numberLike, doc('A ratio')),
  network: z.enum(['mainnet', 'devnet']).default('mainnet').meta(doc('The network')),
  includeInputs: z.boolean().meta(doc('Include inputs')).optional(),
  addresses: z.array(z.string()).meta({ description: 'Addresses', placeholder: 'a, b' }),
  webhookUrl: z.string().meta({ title: 'Target', description: 'Where deliveries go' }),
  nested: z.object({ a: z.string() }).meta(doc('Nested')).optional(),
});

function presentation(overrides: Partial<Presentation> = {}): Presentation {
  return {
    id: 'exampleCall',
    resource: 'example',
    action: 'call',
    displayName: 'Example Call',
    summary: 'An example',
    examples: [{ input: {}, response: {} }],
    ...overrides,
  };
}

describe('describeFields', () => {
  const fields = Object.fromEntries(describeFields(input, ['toBlock']).map((field) => [field.name, field]));

  it('reads each field’s description, label and requiredness from the schema', () => {
    expect(fields.address).toMatchObject({
      displayName: 'Address',
      description: expect.stringContaining('0x and 40 hex digits'),
      type: 'string',
      required: true,
      placeholder: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      advanced: false,
    });
    expect(fields.webhookUrl).toMatchObject({ displayName: 'Target', description: 'Where deliveries go' });
    expect(fields.toBlock).toMatchObject({ type: 'number', required: false, advanced: true });
  });

  it('offers the 32 chains by name, and says a chain also takes ids', () => {
    expect(fields.chain!.type).toBe('options');
    expect(fields.chain!.options).toHaveLength(EVM_CHAINS.length);
    expect(fields.chain!.options).toContainEqual({ name: 'bsc testnet', value: 'bsc testnet' });
    expect(fields.chain!.description).toMatch(/hex id/);
    // The JSON Schema keeps the open input: ids are accepted too, and no `{}` "anything" branch.
    expect(JSON.stringify(fields.chain!.schema.anyOf)).not.toContain('{}');
  });

  it('maps enums to options with their default, numbers given as text to number, lists to stringList', () => {
    expect(fields.network).toMatchObject({ type: 'options', required: false, default: 'mainnet' });
    expect(fields.network!.options).toEqual([
      { name: 'mainnet', value: 'mainnet' },
      { name: 'devnet', value: 'devnet' },
    ]);
    expect(fields.ratio).toMatchObject({ type: 'number', required: true });
    expect(fields.includeInputs!.type).toBe('boolean');
    expect(fields.addresses).toMatchObject({ type: 'stringList', placeholder: 'a, b' });
    expect(fields.nested!.type).toBe('json');
  });
});

describe('inputJsonSchema', () => {
  it('reads bigint inputs as non-negative integers', () => {
    expect(inputJsonSchema(z.bigint())).toMatchObject({ type: 'integer', minimum: 0 });
  });
});

describe('labelOf', () => {
  it.each([
    ['toBlock', 'To Block'],
    ['webhookUrl', 'Webhook URL'],
    ['xpubId', 'Xpub ID'],
    ['minPairSideLiquidityUsd', 'Min Pair Side Liquidity USD'],
  ])('%s → %s', (name, label) => expect(labelOf(name)).toBe(label));
});

describe('checkPresentation', () => {
  const documented = z.object({ id: z.string().meta(doc('An id')) });

  it('refuses a field without a description, naming it', () => {
    const schema = z.object({ id: z.string().meta(doc('An id')), secret: z.string().optional() });
    expect(() => checkPresentation(presentation({ id: 'undocumented', action: 'a1' }), schema)).toThrow(
      /undocumented: field\(s\) secret have no description/,
    );
  });

  it('refuses a second endpoint with the same resource and action', () => {
    checkPresentation(presentation({ id: 'first', action: 'twice' }), documented);
    expect(() => checkPresentation(presentation({ id: 'second', action: 'twice' }), documented)).toThrow(
      /example\.twice is already used by first/,
    );
    // The same endpoint defined again (a module loaded twice) is not a clash.
    expect(() => checkPresentation(presentation({ id: 'first', action: 'twice' }), documented)).not.toThrow();
  });

  it('refuses advanced, paging or chunking fields that do not exist', () => {
    expect(() =>
      checkPresentation(presentation({ id: 'p1', action: 'p1', advanced: ['nope'] }), documented),
    ).toThrow(/unknown field\(s\) nope/);
    expect(() =>
      checkPresentation(
        presentation({
          id: 'p2',
          action: 'p2',
          paging: { style: 'cursor', cursorField: 'cursor', nextCursor: 'cursor', items: 'result' },
        }),
        documented,
      ),
    ).toThrow(/unknown field\(s\) cursor/);
  });

  it('needs an example, a display name and camelCase names', () => {
    expect(() =>
      checkPresentation({ ...presentation({ id: 'e1', action: 'e1' }), examples: [] as never }, documented),
    ).toThrow(/at least one example/);
    expect(() =>
      checkPresentation(presentation({ id: 'e2', action: 'e2', displayName: ' ' }), documented),
    ).toThrow(/displayName/);
    expect(() => checkPresentation(presentation({ id: 'e3', action: 'get-it' }), documented)).toThrow(
      /action must be a camelCase word/,
    );
  });
});

describe('undocumentedFields', () => {
  it('finds a description where the JSON Schema does: outside or inside wrappers, on a pipe’s input', () => {
    const schema = z.object({
      wrapped: z.optional(withMeta(nonNegativeInteger, doc('Inside optional'))),
      outside: withMeta(z.optional(z.string()), doc('On optional')),
      defaulted: z.string().meta(doc('Inside default')).default('x'),
      piped: z.pipe(z.string().meta(doc('On the input')), z.transform(Number)),
      nullable: z.nullish(evmChain),
      bare: z.optional(z.string()),
      blank: z.string().meta(doc(' ')),
    });
    const fromJson = describeFields(schema)
      .filter((field) => field.description.trim() === '')
      .map((field) => field.name);
    // A nullable field's JSON Schema holds the inner one in an `anyOf`: its description is not the field's.
    expect(undocumentedFields(schema)).toEqual(['nullable', 'bare', 'blank']);
    expect(undocumentedFields(schema)).toEqual(fromJson);
  });
});

describe('actions', () => {
  it('describe the input the SDK function takes, with the endpoint’s presentation', async () => {
    const operation = presentation({ id: 'act', action: 'act', advanced: ['limit'] });
    const action = defineAction({
      operation,
      input: z.object({ limit: z.number().meta(doc('Page size')).optional() }),
      call: async (_client: unknown, value: { limit?: number }) => value.limit ?? 0,
    });
    expect(await action.call(undefined, { limit: 3 })).toBe(3);
    const description = describeAction(action);
    expect(description).toMatchObject({
      id: 'act',
      resource: 'example',
      action: 'act',
      displayName: 'Example Call',
    });
    expect(description.fields).toEqual([expect.objectContaining({ name: 'limit', advanced: true })]);
  });

  it('refuse an undocumented input field', () => {
    expect(() =>
      defineAction({
        operation: presentation({ id: 'act2', action: 'act2' }),
        input: z.object({ limit: z.number() }),
        call: async () => 0,
      }),
    ).toThrow(/act2: action field\(s\) limit have no description/);
  });
});
