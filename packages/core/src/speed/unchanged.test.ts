import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/v4';
import { compileFieldChecker } from './compile-fields.js';
import { createUnchangedChecks, markStringCheck, type UnchangedChecks } from './unchanged.js';

const hexCheck = (value: unknown) => typeof value === 'string' && /^0x[0-9a-f]*$/i.test(value);
// Declared a function of the string alone in every copy of the module loaded below, as
// @blockwire/rpc's hex check is: each place remembers the last two strings it passed.
const hex = z.custom<string>(hexCheck);
const unmarkedHex = z.custom<string>((value) => hexCheck(value));
const optionalString = z.string().nullish();

/** Schemas of every kind the check understands, and of kinds it must leave to zod. */
const schemas = {
  price: z.looseObject({
    usdPrice: z.number(),
    possibleSpam: z.boolean(),
    tokenName: optionalString,
    nativePrice: z.looseObject({}).nullish(),
    securityScore: z.number().nullish(),
  }),
  block: z.looseObject({
    hash: hex.nullable(),
    uncles: z.array(hex),
    baseFeePerGas: hex.optional(),
    transactions: z.array(z.union([hex, z.looseObject({ hash: hex, to: hex.nullable(), value: hex })])),
  }),
  bitcoin: z.looseObject({
    confirmed: z.boolean(),
    retries: z.number().int().min(0).optional(),
    block: z.looseObject({ height: z.union([z.string(), z.number().transform(String)]), hash: z.string() }),
    transactions: z.array(
      z.looseObject({
        txid: z.string(),
        fee: z.union([z.number(), z.string()]).nullable().optional(),
        vout: z.array(z.looseObject({ addresses: z.array(z.string()).nullable().optional() })).optional(),
      }),
    ),
  }),
  strict: z.strictObject({ a: z.string(), b: z.number().optional() }),
  stripping: z.object({ a: z.string(), b: z.boolean().optional() }),
  catchall: z.object({ a: z.string() }).catchall(z.number()),
  defaults: z.looseObject({ a: z.string().default('x'), b: z.number().optional().default(1) }),
  transforms: z.looseObject({ a: z.string().trim(), b: z.string().transform((s) => s.length) }),
  enums: z.looseObject({ kind: z.enum(['a', 'b']), flag: z.literal(true).optional() }),
  coerced: z.looseObject({ n: z.coerce.number() }),
  refined: z.looseObject({ a: z.number() }).refine((value) => value.a > 0),
  unionFirstTransforms: z.union([z.number().transform((n) => n * 2), z.number()]),
  unknownKeyed: z.looseObject({ data: z.unknown(), anything: z.any(), nothing: z.null() }),
  unmarked: z.looseObject({ a: unmarkedHex, b: z.array(unmarkedHex.nullable()) }),
  refinedHex: z.looseObject({ a: hex.refine((value) => value.length < 5), b: z.array(hex.optional()) }),
  strings: z.array(z.string().min(2).max(4)),
  oddKeys: z.looseObject({
    'a"b': z.string(),
    constructor: z.number().optional(),
    '\u2028\\': z.boolean(),
    '0': z.string().nullable(),
  }),
  patterns: z.looseObject({
    address: z.string().regex(/^(?:0x[0-9a-f]{4}|a)/i),
    tagged: z.string().regex(/^a/g).optional(),
    mixed: z.string().regex(/x/).min(2).optional(),
    big: z.bigint().optional(),
  }),
  // Schemas that are a check themselves: their def has no `checks`, only `check` and `format`.
  formats: z.looseObject({
    count: z.int(),
    small: z.int32().optional(),
    mail: z.email().nullable(),
    id: z.uuid().optional(),
    at: z.array(z.iso.datetime()),
  }),
  // A number's bounds and integer formats, checked without zod; `multipleOf` is left to it.
  bounds: z.looseObject({
    count: z.number().int().min(0),
    share: z.number().positive().lt(3).optional(),
    small: z.int32().nullable(),
    range: z.number().max(2).gte(-1.5),
  }),
  formatBounds: z.looseObject({
    unsigned: z.uint32().min(1).optional(),
    single: z.float32(),
    even: z.number().multipleOf(2).optional(),
  }),
  xor: z.discriminatedUnion('kind', [
    z.looseObject({ kind: z.literal('a'), x: z.string() }),
    z.looseObject({ kind: z.literal('b'), y: z.number() }),
  ]),
};

/** Values near a schema: mostly what it asks for, with wrong types, missing and extra keys mixed in. */
function near(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const wrong = fc.oneof(
    fc.constantFrom(
      undefined,
      null,
      0,
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      ' x ',
      'abc',
      '0x1f',
      true,
    ),
    fc.constant([]),
    fc.constant({}),
  );
  const mostly = (right: fc.Arbitrary<unknown>) =>
    fc.oneof({ arbitrary: right, weight: 30 }, { arbitrary: wrong, weight: 1 });
  if (depth > 4) return wrong;
  switch (def.type) {
    case 'string':
      return mostly(
        fc.oneof(
          { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
          {
            arbitrary: fc.constantFrom(
              ' pad ',
              'ab',
              '0xabcd',
              '0XAB12',
              'ax',
              'x',
              'a@b.co',
              '2026-11-27T03:04:05Z',
            ),
            weight: 3,
          },
        ),
      );
    case 'bigint':
      return mostly(fc.bigInt());
    case 'number':
      // Small integers mostly, so that values pass a number's bounds often enough to be seen.
      return mostly(
        fc.oneof(
          { arbitrary: fc.integer({ min: -5, max: 5 }), weight: 3 },
          { arbitrary: fc.double({ noNaN: false }), weight: 1 },
        ),
      );
    case 'boolean':
      return mostly(fc.boolean());
    case 'custom':
      return mostly(fc.constantFrom('0x', '0xabc', '0xZZ', '0X1', 'abc'));
    case 'optional':
    case 'nullable':
    case 'default':
      return fc.oneof(
        { arbitrary: near(def.innerType as z.ZodType, depth), weight: 4 },
        { arbitrary: fc.constantFrom(undefined, null), weight: 1 },
      );
    case 'null':
      return mostly(fc.constant(null));
    case 'unknown':
    case 'any':
      return fc.jsonValue();
    case 'array':
      return mostly(fc.array(near(def.element as z.ZodType, depth + 1), { maxLength: 4 }));
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => near(option, depth + 1)));
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
        Object.entries(shape).map(([key, field]) => [key, near(field, depth + 1)]),
      );
      return mostly(
        fc
          .tuple(
            fc.oneof(
              { arbitrary: fc.record(fields), weight: 4 },
              { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
            ) as fc.Arbitrary<Record<string, unknown>>,
            fc.dictionary(
              fc.constantFrom('extra', 'other', '__proto__', 'a'),
              fc.oneof(fc.integer(), fc.string()),
              {
                maxKeys: 2,
              },
            ),
          )
          .map(([known, extra]) => ({ ...extra, ...known })),
      );
    }
    case 'enum':
      return mostly(fc.constantFrom('a', 'b', 'c'));
    case 'literal':
      return mostly(fc.constantFrom(true, false));
    default:
      return fc.oneof(wrong, fc.string(), fc.integer(), fc.constant(undefined));
  }
}

markStringCheck(hexCheck);

/** The checks as the operation layer has them (a loop), or with code compiled per shape. */
function loaded(compiled: boolean): UnchangedChecks['passesUnchanged'] {
  return createUnchangedChecks(compiled ? compileFieldChecker : undefined).passesUnchanged;
}

describe.each([
  ['fields in a loop', loaded(false)],
  ['fields compiled per shape', loaded(true)],
])('passesUnchanged (%s)', (_, passesUnchanged) => {
  /** Schemas some values pass unchanged: the property must see such values, not only refusals. */
  const passable = new Set([
    'price',
    'block',
    'bitcoin',
    'strict',
    'stripping',
    'catchall',
    'enums',
    'unknownKeyed',
    'unmarked',
    'oddKeys',
    'strings',
    'unionFirstTransforms',
    'patterns',
    'bounds',
    'formatBounds',
  ]);

  it.each(Object.entries(schemas))(
    'never says yes where zod (%s) fails or changes the value',
    (name, schema) => {
      let passed = 0;
      fc.assert(
        fc.property(near(schema), (value) => {
          const result = schema.safeParse(value);
          if (passesUnchanged(schema, value)) {
            passed++;
            expect(result.success).toBe(true);
            expect(result.data).toStrictEqual(value);
          }
        }),
        // The sparsest schemas (a block, a Bitcoin delivery) let ~2.6 % of their values through:
        // at 1,500 runs that was 29–52 of them, and once 20, under the floor below.
        { numRuns: 3_000 },
      );
      if (passable.has(name)) expect(passed).toBeGreaterThan(20);
    },
  );

  it('says yes for the usual answers, which are then never copied', () => {
    const block = {
      hash: '0xab',
      uncles: [],
      transactions: ['0x01', { hash: '0x02', to: null, value: '0x0', extra: { kept: true } }],
      chainExtra: 1,
    };
    expect(passesUnchanged(schemas.block, block)).toBe(true);
    expect(
      passesUnchanged(schemas.bitcoin, {
        confirmed: true,
        retries: 0,
        block: { height: '870001', hash: 'h' },
        transactions: [{ txid: 'a', fee: 0.0001, vout: [{ addresses: null }] }],
      }),
    ).toBe(true);
    expect(passesUnchanged(schemas.price, { usdPrice: 1, possibleSpam: false, tokenName: null })).toBe(true);
  });

  it('leaves to zod what zod would change or might reject', () => {
    expect(
      passesUnchanged(schemas.bitcoin, {
        confirmed: true,
        block: { height: 1, hash: 'h' },
        transactions: [],
      }),
    ).toBe(false);
    expect(passesUnchanged(schemas.stripping, { a: 'x', dropped: 1 })).toBe(false);
    expect(passesUnchanged(schemas.strict, { a: 'x', unknown: 1 })).toBe(false);
    expect(passesUnchanged(schemas.defaults, {})).toBe(false);
    expect(
      passesUnchanged(schemas.price, JSON.parse('{"usdPrice":1,"possibleSpam":false,"__proto__":{"x":1}}')),
    ).toBe(false);
    expect(passesUnchanged(schemas.price, { usdPrice: Number.POSITIVE_INFINITY, possibleSpam: false })).toBe(
      false,
    );
  });

  it('leaves to zod a refinement on a layer between optional and the value', () => {
    // The refinement sits on the nullable layer, neither the outermost nor the innermost one.
    const notNo = (value: unknown) => value !== 'no';
    const layered = z.looseObject({
      text: z.string().nullable().refine(notNo).optional(),
      amount: z.union([z.number(), z.string()]).nullable().refine(notNo).optional(),
    });
    for (const value of [{ text: 'no' }, { amount: 'no' }]) {
      expect(layered.safeParse(value).success).toBe(false);
      expect(passesUnchanged(layered, value)).toBe(false);
    }
    expect(passesUnchanged(layered, { text: 'yes', amount: 1 })).toBe(true);
  });

  it('checks a schema that is a check itself (z.int(), z.email()) as zod does', () => {
    const at = '2026-11-27T03:04:05Z';
    const good = { count: 3, small: 7, mail: 'a@b.co', id: undefined, at: [at] };
    expect(passesUnchanged(schemas.formats, good)).toBe(true);
    expect(passesUnchanged(schemas.formats, { ...good, count: 1.5 })).toBe(false);
    expect(passesUnchanged(schemas.formats, { ...good, small: 2 ** 31 })).toBe(false);
    expect(passesUnchanged(schemas.formats, { ...good, mail: 'not a mail' })).toBe(false);
    expect(passesUnchanged(schemas.formats, { ...good, id: 'x' })).toBe(false);
    expect(passesUnchanged(schemas.formats, { ...good, at: [at, 'yesterday'] })).toBe(false);
    expect(passesUnchanged(z.int().nullable(), 0.5)).toBe(false);
  });

  it("checks a number's bounds and integer formats as zod does, without asking zod", () => {
    const count = z.number().int().min(0);
    const schema = z.looseObject({ count, small: z.int32().optional(), share: z.number().positive().lte(1) });
    const runs = vi.spyOn(count._zod, 'run');
    const good = { count: 3, small: -2147483648, share: 1 };
    expect(passesUnchanged(schema, good)).toBe(true);
    expect(passesUnchanged(schema, { ...good, count: 0 })).toBe(true);
    expect(passesUnchanged(schema, { ...good, count: -0 })).toBe(true);
    expect(runs).not.toHaveBeenCalled();
    for (const count of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '3']) {
      expect(passesUnchanged(schema, { ...good, count })).toBe(false);
    }
    for (const small of [2 ** 31, -(2 ** 31) - 1, 0.5]) {
      expect(passesUnchanged(schema, { ...good, small })).toBe(false);
    }
    for (const share of [0, -0.5, 1.0000001]) {
      expect(passesUnchanged(schema, { ...good, share })).toBe(false);
    }
    const even = z.number().multipleOf(2);
    expect(passesUnchanged(even, 4)).toBe(true);
    expect(passesUnchanged(even, 3)).toBe(false);
  });

  it('passes a string equal to one a place last passed, and nothing else on that account', () => {
    const schema = z.looseObject({ hash: hex, list: z.array(hex), maybe: hex.nullable().optional() });
    const good = `0x${'ab'.repeat(32)}`;
    const other = `0x${'cd'.repeat(32)}`;
    expect(passesUnchanged(schema, { hash: good, list: [good, other, good], maybe: good })).toBe(true);
    for (const bad of [`${good.slice(0, -1)}g`, `${good} `, `${good}z`, `0y${good.slice(2)}`]) {
      expect(passesUnchanged(schema, { hash: good, list: [good, other, bad] })).toBe(false);
      expect(passesUnchanged(schema, { hash: bad, list: [] })).toBe(false);
      expect(passesUnchanged(schema, { hash: good, list: [], maybe: bad })).toBe(false);
    }
    expect(passesUnchanged(schema, { hash: 1, list: [] })).toBe(false);
    expect(passesUnchanged(schema, { hash: good, list: [good, null] })).toBe(false);
    expect(passesUnchanged(schema, { hash: good, list: [], maybe: null })).toBe(true);
    // A refinement on top of the check is not the check alone: it is asked every time.
    const refined = z.looseObject({ a: hex.refine((value) => value !== '0x1') });
    expect(passesUnchanged(refined, { a: '0x2' })).toBe(true);
    expect(passesUnchanged(refined, { a: '0x1' })).toBe(false);
  });

  it('handles a recursive schema', () => {
    const tree: z.ZodType = z.lazy(() =>
      z.looseObject({ name: z.string(), children: z.array(tree).optional() }),
    );
    expect(passesUnchanged(tree, { name: 'a', children: [{ name: 'b', children: [] }] })).toBe(true);
    expect(passesUnchanged(tree, { name: 'a', children: [{ name: 1 }] })).toBe(false);
  });
});
