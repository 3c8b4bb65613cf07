import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { ValidationError } from '../errors.js';
import { type Operation, validateOperationInput } from '../operation.js';
import { evmAddress, evmChain } from '../schemas.js';
import { quickInput, UNSURE } from './quick-input.js';

const ADDRESS = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

/** Input schemas as operations write them, and kinds the quick path must leave to zod. */
const schemas = {
  price: z.strictObject({
    address: evmAddress,
    chain: z.optional(evmChain),
    exchange: z.string().min(1).optional(),
    toBlock: z.number().int().nonnegative().optional(),
    flag: z.boolean().optional(),
  }),
  required: z.strictObject({ chain: evmChain, id: z.string(), n: z.number().nullable() }),
  issueByAddIssue: z.strictObject({
    n: z.union([z.number(), z.string()]).transform((value, ctx) => {
      if (value === 'bad') {
        ctx.addIssue({ code: 'custom', message: 'is bad' });
        return z.NEVER;
      }
      return String(value);
    }),
  }),
  defaults: z.strictObject({ a: z.string().default('x'), b: z.number().optional().default(1) }),
  stripping: z.object({ a: z.string() }),
  // A JSON-RPC method's arguments: a union then a transform, a default; unknown keys dropped.
  rpcArguments: z.object({
    tag: z.union([z.number(), z.bigint(), z.string()]).transform((value, ctx) => {
      const integer =
        (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
        (typeof value === 'bigint' && value >= 0n) ||
        (typeof value === 'string' && /^(\d+|0x[0-9a-f]+)$/.test(value));
      if (!integer) {
        ctx.issues.push({ code: 'custom', message: 'is not a block number', input: value });
        return z.NEVER;
      }
      return `0x${BigInt(value).toString(16)}`;
    }),
    full: z.boolean().default(false),
  }),
  loose: z.looseObject({ a: z.string() }),
  refined: z.strictObject({ a: z.number() }).refine((value) => value.a > 0),
};

const fieldValues = fc.oneof(
  fc.constantFrom(
    ADDRESS,
    ADDRESS.toLowerCase(),
    '0x123',
    'eth',
    'ETH',
    'polygon',
    '0x1',
    '0x89',
    137,
    1n,
    'nochain',
    'bad',
    '',
    ' x ',
    0,
    -1,
    1.5,
    Number.NaN,
    true,
    null,
    undefined,
    [],
    {},
  ),
  fc.string({ maxLength: 4 }),
  fc.integer(),
);

/** Values each field takes, so that whole inputs pass often. */
const GOOD: Record<string, unknown[]> = {
  address: [ADDRESS, ADDRESS.toLowerCase()],
  chain: ['eth', 137, '0x89', 1n],
  exchange: ['uniswapv3'],
  toBlock: [0, 19_000_000],
  flag: [true, false],
  id: ['x'],
  n: [1, null, 'ok'],
  a: ['a', 2],
  b: [2],
  tag: [1, 2n, '0x10', '7'],
  full: [true, false, undefined],
};

function inputsFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const shape =
    (schema as unknown as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def.shape ?? {};
  const keys = Object.keys(shape);
  const record = fc.record(
    Object.fromEntries(
      keys.map((key) => [
        key,
        fc.oneof({ arbitrary: fc.constantFrom(...(GOOD[key] ?? [undefined])), weight: 3 }, fieldValues),
      ]),
    ),
    { requiredKeys: [] },
  );
  return fc.oneof(
    { arbitrary: record, weight: 8 },
    {
      arbitrary: fc
        .tuple(
          record,
          fc.dictionary(fc.constantFrom('extra', 'to_block', '__proto__', 'constructor'), fieldValues, {
            maxKeys: 2,
          }),
        )
        .map(([known, extra]) => ({ ...extra, ...known })),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom(null, undefined, 'text', [], Object.create({ address: ADDRESS })),
      weight: 1,
    },
  );
}

describe('quickInput', () => {
  const quickly = new Set(['price', 'required', 'issueByAddIssue', 'defaults', 'stripping', 'rpcArguments']);

  it.each(Object.entries(schemas))(
    'gives exactly what zod (%s) gives, or leaves the input to zod',
    (name, schema) => {
      const known = (schema as unknown as { _zod: { def: { shape: object } } })._zod.def.shape;
      let quick = 0;
      fc.assert(
        fc.property(inputsFor(schema), (input) => {
          const result = quickInput(schema, known, input);
          if (result === UNSURE) return;
          quick++;
          const parsed = schema.safeParse(input);
          expect(parsed.success).toBe(true);
          expect(result).toStrictEqual(parsed.data);
          // The same keys in the same order (the query string follows the fields, but be exact).
          expect(Object.keys(result)).toEqual(Object.keys(parsed.data as object));
        }),
        { numRuns: 2_000 },
      );
      if (quickly.has(name)) expect(quick).toBeGreaterThan(20);
      else expect(quick).toBe(0);
    },
  );

  it('takes the usual call, and leaves a key the operation does not list to zod', () => {
    const known = { address: 'path', chain: 'query', exchange: 'query', toBlock: 'query', flag: 'query' };
    expect(quickInput(schemas.price, known, { address: ADDRESS, chain: 'eth' })).toEqual({
      address: ADDRESS,
      chain: '0x1',
    });
    expect(quickInput(schemas.price, known, { address: ADDRESS, chain: 'eth', extra: 1 })).toBe(UNSURE);
    const { flag: _, ...fewer } = known;
    expect(quickInput(schemas.price, fewer, { address: ADDRESS })).toBe(UNSURE);
  });
});

describe('validateOperationInput with the quick path', () => {
  // Only what validateOperationInput reads: no presentation needed.
  const operation = {
    id: 'getPrice',
    resource: 'price',
    action: 'get',
    displayName: 'Get Price',
    summary: 'Get a price',
    api: 'evm',
    method: 'GET',
    path: '/erc20/{address}/price',
    input: z.strictObject({
      address: evmAddress,
      chain: z.optional(evmChain),
      exchange: z.string().min(1).meta({ description: 'An exchange.' }).optional(),
      toBlock: z.number().int().nonnegative().meta({ description: 'A block.' }).optional(),
      flag: z.boolean().meta({ description: 'A flag.' }).optional(),
    }),
    fields: {
      address: 'path',
      chain: 'query',
      exchange: 'query',
      toBlock: { in: 'query', as: 'to_block' },
      flag: 'query',
    },
    response: z.looseObject({}),
    idempotent: true,
  } as unknown as Operation;

  it('returns zod’s data for the usual input', () => {
    expect(validateOperationInput(operation, { address: ADDRESS, chain: 137, flag: true })).toStrictEqual(
      schemas.price.parse({ address: ADDRESS, chain: 137, flag: true }),
    );
  });

  it('words every mistake as before: zod’s messages, naming the field', () => {
    const messageOf = (input: unknown) => {
      try {
        validateOperationInput(operation, input);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).issues;
      }
      throw new Error('accepted');
    };
    expect(messageOf({ address: ADDRESS, chain: 'nochain' })).toEqual([
      { path: 'chain', message: expect.stringContaining('nochain') },
    ]);
    expect(messageOf({ address: '0x12' })).toEqual([
      { path: 'address', message: 'must be a 0x-prefixed address of 40 hex digits' },
    ]);
    expect(messageOf({ address: ADDRESS, to_block: 1 })[0]!.message).toContain('"toBlock"');
  });
});
