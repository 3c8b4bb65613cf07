import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAILS, loopOverFields, PASSES, type PlainLeaf, UNSURE, type Verdict } from './unchanged.js';

const isString = (value: unknown): Verdict => (typeof value === 'string' ? PASSES : FAILS);
const unsure = (): Verdict => UNSURE;

afterEach(() => vi.unstubAllGlobals());

describe('compileFieldChecker', () => {
  it('gives the verdicts of the loop: missing, wrong, unsure, inherited and odd field names', async () => {
    const { compileFieldChecker } = await import('./compile-fields.js');
    const keys = ['a"b', 'constructor', '\u2028\\', 'maybe', 'later', '0'];
    const checks = [isString, isString, isString, isString, unsure, isString];
    const absentPasses = [false, true, false, true, true, true];
    const compiled = compileFieldChecker(keys, checks, absentPasses)!;
    const loop = loopOverFields(keys, checks, absentPasses);
    const records: Record<string, unknown>[] = [
      Object.assign(Object.create(null), { 'a"b': 'x', '\u2028\\': 'y' }),
      Object.assign(Object.create(null), { 'a"b': 'x', '\u2028\\': 1 }),
      Object.assign(Object.create(null), { '\u2028\\': 'y' }),
      Object.assign(Object.create(null), { 'a"b': undefined, '\u2028\\': 'y' }),
      Object.assign(Object.create(null), { 'a"b': 'x', '\u2028\\': 'y', later: 0 }),
      Object.assign(Object.create(null), { 'a"b': 'x', '\u2028\\': 'y', later: 0, maybe: 2 }),
      Object.assign(Object.create(null), { 'a"b': 'x', '\u2028\\': 'y', 0: 3 }),
      // `constructor` is inherited by a plain object: present, the way zod sees it (`in`).
      { 'a"b': 'x', '\u2028\\': 'y' },
      { 'a"b': 'x', '\u2028\\': 'y', constructor: 'own' },
    ];
    const verdicts = records.map((record) => [compiled(record), loop(record)]);
    for (const [compiledVerdict, loopVerdict] of verdicts) expect(compiledVerdict).toBe(loopVerdict);
    expect(verdicts.map(([verdict]) => verdict)).toEqual([
      PASSES,
      FAILS,
      UNSURE,
      FAILS,
      UNSURE,
      FAILS,
      FAILS,
      FAILS,
      PASSES,
    ]);
  });

  it('calls a string check given per field directly, with the verdicts of the loop', async () => {
    const { compileFieldChecker } = await import('./compile-fields.js');
    // A check that answers `true`, another truthy value, or false, and counts its calls.
    let calls = 0;
    const hexish = (value: unknown) => {
      calls++;
      if (value === '0xtruthy') return 1;
      return typeof value === 'string' && /^0x[0-9a-f]*$/.test(value);
    };
    const full = (value: unknown): Verdict =>
      value === null || value === undefined ? PASSES : hexish(value) ? PASSES : FAILS;
    const keys = ['hash', 'maybe', 'plain'];
    const checks = [full, full, isString];
    const absentPasses = [false, true, false];
    const compiled = compileFieldChecker(keys, checks, absentPasses, [hexish, hexish, undefined])!;
    const loop = loopOverFields(keys, checks, absentPasses);
    const records: Record<string, unknown>[] = [
      { hash: '0xab', plain: 'x' },
      { hash: '0xab', maybe: '0xcd', plain: 'x' },
      { hash: '0xab', maybe: null, plain: 'x' },
      { hash: '0xag', plain: 'x' },
      { hash: '0xab', maybe: '0xzz', plain: 'x' },
      { hash: 1, plain: 'x' },
      { hash: '0xtruthy', plain: 'x' },
      { hash: '0xab', maybe: undefined, plain: 'x' },
      { maybe: '0xab', plain: 'x' },
      { hash: '0xab', plain: 2 },
    ];
    for (const record of records) expect(compiled(record)).toBe(loop(record));
    // The last two strings a field passed are not checked again; a failed one always is.
    calls = 0;
    for (const hash of ['0x01', '0x02', '0x01', '0x02', '0x01']) compiled({ hash, plain: 'x' });
    expect(calls).toBe(2);
    calls = 0;
    for (let i = 0; i < 3; i++) expect(compiled({ hash: '0xag', plain: 'x' })).toBe(FAILS);
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('passes the values of a plain leaf in line, and asks the check about every other value', async () => {
    const { compileFieldChecker } = await import('./compile-fields.js');
    let calls = 0;
    // A BTC amount (number or string, nullish) and a required boolean, as their compiled checks say.
    const amount = (value: unknown): Verdict => {
      calls++;
      const passes =
        value === undefined || value === null || typeof value === 'string' || Number.isFinite(value);
      return passes ? PASSES : FAILS;
    };
    const flag = (value: unknown): Verdict => {
      calls++;
      return typeof value === 'boolean' ? PASSES : FAILS;
    };
    const keys = ['value', 'isCoinbase'];
    const checks = [amount, flag];
    const absentPasses = [true, false];
    const leaves: PlainLeaf[] = [
      { types: ['number', 'string'], undefined: true, null: true },
      { types: ['boolean'], undefined: false, null: false },
    ];
    const compiled = compileFieldChecker(keys, checks, absentPasses, [], leaves)!;
    const loop = loopOverFields(keys, checks, absentPasses);
    const values = [1.5, '1.5', null, undefined, Number.NaN, Infinity, 1n, {}, [], true];
    for (const value of values) {
      for (const isCoinbase of [false, undefined, 'no']) {
        const record = { value, isCoinbase };
        expect(compiled(record)).toBe(loop(record));
      }
    }
    expect(compiled({ isCoinbase: true })).toBe(PASSES);
    calls = 0;
    for (const value of [1.5, '1.5', null, undefined]) compiled({ value, isCoinbase: true });
    expect(calls).toBe(0);
  });

  it('gives up where the runtime refuses to compile code (then the loop is used)', async () => {
    refuseCodeFromText();
    vi.resetModules();
    const { compileFieldChecker } = await import('./compile-fields.js');
    expect(compileFieldChecker(['a'], [isString], [false])).toBeUndefined();
  });

  it('decides at use: a refusal after load (workerd inside a request) turns to the loop for good', async () => {
    vi.resetModules();
    const { compileFieldChecker } = await import('./compile-fields.js');
    // Loaded where code may be made, as a Worker starts: the first shape is compiled.
    expect(compileFieldChecker(['a'], [isString], [false])).toBeTypeOf('function');
    refuseCodeFromText();
    expect(compileFieldChecker(['b'], [isString], [false])).toBeUndefined();
    // Refused once, never tried again, even where the runtime would allow it now.
    vi.unstubAllGlobals();
    expect(compileFieldChecker(['c'], [isString], [false])).toBeUndefined();
  });

  it('lets a fault in the generated source show, rather than taking it for a refusal', async () => {
    vi.resetModules();
    const { compileFieldChecker } = await import('./compile-fields.js');
    const broken = () => {
      throw new SyntaxError('Unexpected token');
    };
    vi.stubGlobal('Function', new Proxy(Function, { construct: broken, apply: broken }));
    expect(() => compileFieldChecker(['a'], [isString], [false])).toThrow(SyntaxError);
    vi.unstubAllGlobals();
    expect(compileFieldChecker(['a'], [isString], [false])).toBeTypeOf('function');
  });
});

/** What workerd does inside a request and a strict Content-Security-Policy always does. */
function refuseCodeFromText() {
  const refuse = () => {
    throw new EvalError('Code generation from strings disallowed for this context');
  };
  vi.stubGlobal('Function', new Proxy(Function, { construct: refuse, apply: refuse }));
}
