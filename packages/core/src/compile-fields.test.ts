import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAILS, loopOverFields, PASSES, UNSURE, type Verdict } from './unchanged.js';

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

  it('gives up where the runtime refuses to compile code (then the loop is used)', async () => {
    const refuse = () => {
      throw new EvalError('Code generation from strings disallowed for this context');
    };
    vi.stubGlobal('Function', new Proxy(Function, { construct: refuse, apply: refuse }));
    vi.resetModules();
    const { compileFieldChecker } = await import('./compile-fields.js');
    expect(compileFieldChecker(['a'], [isString], [false])).toBeUndefined();
  });
});
