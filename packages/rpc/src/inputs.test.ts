import {
  adversarialString,
  KNOWN_ADVERSARIAL_INPUTS,
  LINEAR_TIME_LIMIT_MS,
  timeOf,
} from '@blockwire/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/v4';
import {
  addressInput,
  blockTagInput,
  hashInput,
  quantityInput,
  storageKeyInput,
  toQuantity,
} from './inputs.js';
import { blockSchema, hex, receiptSchema } from './schemas.js';

/** Every schema of the package that runs a regex (or parses text) over what it is given. */
const schemas: Record<string, z.ZodType> = {
  addressInput,
  blockTagInput,
  hashInput,
  quantityInput,
  storageKeyInput,
  hex,
};

describe('argument and result schemas on hostile input', () => {
  it.each(Object.entries(schemas))('%s stays linear on 40,000-character adversarial strings', (_, schema) => {
    fc.assert(
      fc.property(adversarialString(), (input) => {
        expect(timeOf(() => schema.safeParse(input.text))).toBeLessThan(LINEAR_TIME_LIMIT_MS);
      }),
      { numRuns: 100, examples: [...KNOWN_ADVERSARIAL_INPUTS] },
    );
  });

  it('checks a block whose every hex field is 40,000 characters in linear time', () => {
    fc.assert(
      fc.property(adversarialString(['0', 'f', 'x', '0x', 'g']), (input) => {
        const block = Object.fromEntries(Object.keys(blockSchema.shape).map((key) => [key, input.text]));
        expect(timeOf(() => blockSchema.safeParse({ ...block, transactions: [input.text] }))).toBeLessThan(
          LINEAR_TIME_LIMIT_MS,
        );
        expect(timeOf(() => receiptSchema.safeParse({ logsBloom: input.text, logs: [] }))).toBeLessThan(
          LINEAR_TIME_LIMIT_MS,
        );
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a quantity longer than any 256-bit number without parsing it, and one above 2^256-1', () => {
    expect(toQuantity('9'.repeat(40_000))).toBeUndefined();
    expect(toQuantity(`0x${'f'.repeat(64)}`)).toBe(`0x${'f'.repeat(64)}`);
    expect(toQuantity(`0x1${'0'.repeat(64)}`)).toBeUndefined();
    expect(toQuantity(2n ** 256n)).toBeUndefined();
    expect(toQuantity(`0x${'0'.repeat(90)}1`)).toBe('0x1');
    expect(quantityInput.safeParse('1'.repeat(101)).error?.issues[0]?.message).toMatch(/from 0 to 2\^256-1/);
  });
});
