/**
 * Small zod building blocks shared by every interface package, so a rule such as "an EVM address"
 * or "an integer >= 0 that may arrive as a query string" is written once.
 */
import { type $ZodType, clone, type GlobalMeta, globalRegistry } from 'zod/v4/core';
import * as z from 'zod/v4/mini';
import { EVM_CHAINS, findChain, unknownChainMessage } from './chains.js';

/**
 * A copy of `schema` carrying `meta` (what classic zod's `.meta()` does): works on classic and
 * mini schemas alike, with zod 4 and with zod 3.25's `zod/v4` (the copy n8n ships).
 */
export function withMeta<S extends $ZodType>(schema: S, meta: GlobalMeta): S {
  const copy = clone(schema);
  globalRegistry.add(copy, meta);
  return copy;
}

export const evmAddress = withMeta(
  z
    .string({ error: 'must be a string' })
    .check(z.regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 0x-prefixed address of 40 hex digits' })),
  {
    description: 'An EVM address: 0x and 40 hex digits, in any case.',
    examples: ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
  },
);

/** A chain of the EVM data interface by name, hex id or decimal id; sent as its hex id. */
export const evmChain = withMeta(
  z.pipe(
    z.union([z.string(), z.number(), z.bigint()], { error: 'must be a chain name or id' }),
    z.transform((value, ctx) => {
      const chain = findChain(value);
      if (!chain) {
        ctx.issues.push({ code: 'custom', message: unknownChainMessage(value), input: value });
        return z.NEVER;
      }
      return chain.hexId;
    }),
  ),
  {
    title: 'Chain',
    description:
      'The EVM chain: a name (eth, polygon, bsc testnet), a hex id (0x89) or a decimal id (137). Sent as the hex id.',
    placeholder: 'eth',
    options: EVM_CHAINS.map((chain) => ({ name: chain.name, value: chain.name })),
  },
);

// Every regex here is linear in its input: no two quantifiers can match the same characters
// (`\d+\.?\d*` could split a run of digits n ways, so a 40,000-digit string took seconds to refuse).
// Strings longer than any sensible value are refused before the regex runs.
const numericString = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
/** Longer than any number a person writes (a double has at most 17 significant digits). */
const MAX_NUMBER_LENGTH = 64;
/** Longer than Number.MAX_SAFE_INTEGER (16 digits), leading zeros allowed. */
const MAX_INTEGER_LENGTH = 32;

/** A string branch for a number union: length first (aborting), then the pattern. */
function numericText(pattern: RegExp, maxLength: number) {
  return z.string().check(z.trim(), z.maxLength(maxLength, { abort: true }), z.regex(pattern));
}

/** The union's message: what is wrong with a numeric string, or `fallback`. */
function numericError(fallback: string, maxLength: number) {
  return (issue: { input?: unknown }) =>
    typeof issue.input === 'string' && issue.input.trim().length > maxLength
      ? `is too long (${issue.input.length} characters; a number has at most ${maxLength})`
      : fallback;
}

/** A union of a number and a numeric string read as a number, with the union's message. */
function numberOrText(pattern: RegExp, maxLength: number, fallback: string) {
  return z.union([z.number(), z.pipe(numericText(pattern, maxLength), z.transform(Number))], {
    error: numericError(fallback, maxLength),
  });
}

/** A finite number, also given as a numeric string (query strings carry text). */
export const numberLike = z.pipe(
  numberOrText(numericString, MAX_NUMBER_LENGTH, 'must be a number'),
  z.number({ error: 'must be a number' }),
);

/** An integer >= 0, also given as a decimal string. */
export const nonNegativeInteger = z.pipe(
  numberOrText(/^\d+$/, MAX_INTEGER_LENGTH, 'must be an integer >= 0'),
  z
    .number()
    .check(
      z.int({ error: 'must be an integer >= 0' }),
      z.minimum(0, { error: 'must be an integer >= 0' }),
      z.maximum(Number.MAX_SAFE_INTEGER, { error: 'is too large' }),
    ),
);

/** A non-negative number, also given as a numeric string. */
export const nonNegativeNumber = z.pipe(
  numberLike,
  z.number().check(z.minimum(0, { error: 'must be >= 0' })),
);

/** A non-empty string (after trimming). */
export const nonEmptyString = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.minLength(1, { error: 'must not be empty' }));

/** Page numbers and sizes in responses: documented as integers, sent as strings by real services. */
export const integerLike = z.union([
  z.number(),
  z.pipe(
    z.string().check(z.maxLength(MAX_INTEGER_LENGTH, { abort: true }), z.regex(/^-?\d+$/)),
    z.transform(Number),
  ),
]);
