import {
  adversarialString,
  KNOWN_ADVERSARIAL_INPUTS,
  LINEAR_TIME_LIMIT_MS,
  timeOf,
} from '@blockwire/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as classicZod from 'zod/v4';
import * as z from 'zod/v4/mini';
import {
  evmAddress,
  evmChain,
  integerLike,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  numberLike,
  withMeta,
} from './schemas.js';

/** Every shared schema that runs a regex (or parses text) over its input. */
const schemas: Record<string, z.ZodMiniType> = {
  evmAddress,
  evmChain,
  integerLike,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  numberLike,
};

describe('shared schemas on hostile input', () => {
  it.each(Object.entries(schemas))('%s stays linear on 40,000-character adversarial strings', (_, schema) => {
    fc.assert(
      fc.property(adversarialString(), (input) => {
        expect(timeOf(() => schema.safeParse(input.text))).toBeLessThan(LINEAR_TIME_LIMIT_MS);
      }),
      { numRuns: 100, examples: [...KNOWN_ADVERSARIAL_INPUTS] },
    );
  });

  it('refuses the issue’s input at once: 40,000 digits and an x as maxTokenInactivity', () => {
    const input = `${'1'.repeat(40_000)}x`;
    let issues: z.core.$ZodIssue[] = [];
    expect(timeOf(() => (issues = numberLike.safeParse(input).error?.issues ?? []))).toBeLessThan(
      LINEAR_TIME_LIMIT_MS,
    );
    expect(issues[0]?.message).toBe('is too long (40001 characters; a number has at most 64)');
  });

  it('says an over-long numeric string is too long, and keeps the old message otherwise', () => {
    const message = (schema: z.ZodMiniType, input: unknown) =>
      schema.safeParse(input).error?.issues[0]?.message;
    expect(message(nonNegativeInteger, '1'.repeat(33))).toMatch(/^is too long \(33 characters/);
    expect(message(nonNegativeInteger, 'abc')).toBe('must be an integer >= 0');
    expect(message(numberLike, '1e5x')).toBe('must be a number');
    expect(message(numberLike, true)).toBe('must be a number');
    expect(integerLike.safeParse('1'.repeat(33)).success).toBe(false);
  });

  it('still reads every numeric form it read before', () => {
    for (const [input, value] of [
      ['12', 12],
      [' 12 ', 12],
      ['-1.5', -1.5],
      ['.5', 0.5],
      ['5.', 5],
      ['1e3', 1000],
      ['1.5E-2', 0.015],
      [`${'0'.repeat(50)}1`, 1],
    ] as const) {
      expect(numberLike.parse(input)).toBe(value);
    }
    for (const bad of ['', '.', '-', 'e5', '1e', '1.2.3', '--1', '0x10', 'Infinity']) {
      expect(numberLike.safeParse(bad).success).toBe(false);
    }
    expect(nonNegativeInteger.parse(`${'0'.repeat(20)}42`)).toBe(42);
  });
});

describe('withMeta', () => {
  it('gives a copy the metadata, as classic .meta() does, on mini and classic schemas', () => {
    const mini = withMeta(nonNegativeInteger, { description: 'A block' });
    const classic = withMeta(classicZod.string(), { description: 'A name' });
    expect(classicZod.globalRegistry.get(mini)).toMatchObject({ description: 'A block' });
    expect(classicZod.toJSONSchema(classic)).toMatchObject({ type: 'string', description: 'A name' });
    expect(classic.parse('x')).toBe('x');
    expect(z.safeParse(mini, '7').data).toBe(7);
    expect(classicZod.globalRegistry.get(nonNegativeInteger)?.description).toBeUndefined();
  });
});
