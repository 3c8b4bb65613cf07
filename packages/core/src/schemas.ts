/**
 * Small zod building blocks shared by every interface package, so a rule such as "an EVM address"
 * or "an integer >= 0 that may arrive as a query string" is written once.
 */
import { z } from 'zod/v4';
import { EVM_CHAINS, findChain, unknownChainMessage } from './chains.js';

export const evmAddress = z
  .string({ error: 'must be a string' })
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 0x-prefixed address of 40 hex digits' })
  .meta({
    description: 'An EVM address: 0x and 40 hex digits, in any case.',
    examples: ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
  });

/** A chain of the EVM data interface by name, hex id or decimal id; sent as its hex id. */
export const evmChain = z
  .union([z.string(), z.number(), z.bigint()], { error: 'must be a chain name or id' })
  .transform((value, ctx) => {
    const chain = findChain(value);
    if (!chain) {
      ctx.issues.push({ code: 'custom', message: unknownChainMessage(value), input: value });
      return z.NEVER;
    }
    return chain.hexId;
  })
  .meta({
    title: 'Chain',
    description:
      'The EVM chain: a name (eth, polygon, bsc testnet), a hex id (0x89) or a decimal id (137). Sent as the hex id.',
    placeholder: 'eth',
    options: EVM_CHAINS.map((chain) => ({ name: chain.name, value: chain.name })),
  });

const numericString = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A finite number, also given as a numeric string (query strings carry text). */
export const numberLike = z
  .union([z.number(), z.string().trim().regex(numericString).transform(Number)], {
    error: 'must be a number',
  })
  .pipe(z.number({ error: 'must be a number' }).finite({ error: 'must be a finite number' }));

/** An integer >= 0, also given as a decimal string. */
export const nonNegativeInteger = z
  .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], {
    error: 'must be an integer >= 0',
  })
  .pipe(
    z
      .number()
      .int({ error: 'must be an integer >= 0' })
      .min(0, { error: 'must be an integer >= 0' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' }),
  );

/** A non-negative number, also given as a numeric string. */
export const nonNegativeNumber = numberLike.pipe(z.number().min(0, { error: 'must be >= 0' }));

/** A non-empty string (after trimming). */
export const nonEmptyString = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' });

/** Page numbers and sizes in responses: documented as integers, sent as strings by real services. */
export const integerLike = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);
