import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { createClient } from '../create-client.js';
import { ResponseValidationError, ValidationError } from '../errors.js';
import { defineOperation, runOperation, validateOperationInput } from '../operation.js';
import { evmAddress, evmChain } from '../schemas.js';
import { validateResponse } from '../validation.js';
import { compileFieldChecker } from './compile-fields.js';
import { validationOf, validationPaths } from './index.js';

const ADDRESS = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

const getPrice = defineOperation({
  id: 'getPrice',
  resource: 'testPrice',
  action: 'get',
  displayName: 'Get Price',
  summary: 'A token price',
  examples: [{ input: { address: ADDRESS }, response: { usdPrice: 1 } }],
  api: 'evm',
  method: 'GET',
  path: '/price/{address}',
  input: z.strictObject({ address: evmAddress, chain: z.optional(evmChain) }),
  fields: { address: 'path', chain: 'query' },
  response: z.looseObject({
    usdPrice: z.number(),
    tokenName: z.string().nullable().optional(),
    pairs: z
      .array(z.looseObject({ pair: z.string(), liquidity: z.union([z.number(), z.string()]).nullish() }))
      .optional(),
  }),
  idempotent: true,
});

const every = {
  'shortcuts with code made per shape': validationPaths(true, compileFieldChecker),
  'shortcuts without code': validationPaths(true),
  'zod alone': validationPaths(false),
};

const answer = fc.record(
  {
    usdPrice: fc.oneof(fc.double(), fc.string()),
    tokenName: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
    pairs: fc.array(
      fc.record(
        {
          pair: fc.oneof(fc.string(), fc.integer()),
          liquidity: fc.oneof(fc.double(), fc.string(), fc.constant(null), fc.boolean()),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);
const input = fc.record(
  {
    address: fc.oneof(fc.constant(ADDRESS), fc.string()),
    chain: fc.constantFrom('eth', 'base', '0x1', 'nope', undefined),
  },
  { requiredKeys: [] },
);

/** What a validation gives: its data, or the issues it throws. */
function outcome(run: () => unknown): unknown {
  try {
    return { data: run() };
  } catch (error) {
    if (error instanceof ValidationError || error instanceof ResponseValidationError)
      return { issues: error.issues };
    throw error;
  }
}

describe.each(Object.entries(every))('validation with %s', (_, paths) => {
  it("gives zod's answer for every response", () => {
    fc.assert(
      fc.property(answer, (body) => {
        expect(outcome(() => validateResponse(getPrice.response, body, {}, paths))).toEqual(
          outcome(() => validateResponse(getPrice.response, body, {}, validationPaths(false))),
        );
      }),
    );
  });

  it("gives zod's answer for every input", () => {
    fc.assert(
      fc.property(input, (value) => {
        expect(outcome(() => validateOperationInput(getPrice, value, paths))).toEqual(
          outcome(() => validateOperationInput(getPrice, value, validationPaths(false))),
        );
      }),
    );
  });
});

describe('the fastValidation option', () => {
  const body = { usdPrice: 1.5, tokenName: 'USD Coin', pairs: [{ pair: 'USDC/WETH', liquidity: '12.5' }] };
  const clientWith = (fastValidation?: boolean) =>
    createClient({
      apiKey: 'test-2f9a7c31e8d54b60',
      retry: false,
      ...(fastValidation === undefined ? {} : { fastValidation }),
      transport: async () => ({ status: 200, headers: {}, body: JSON.stringify(body) }),
    });

  it('is on by default, with code made per shape on this runtime', () => {
    expect(validationOf(clientWith())).toBe(validationPaths(true, compileFieldChecker));
    expect(validationOf(clientWith(true)).fast).toBe(true);
  });

  it('off, the client validates with zod alone, and answers the same', async () => {
    const off = clientWith(false);
    expect(validationOf(off)).toBe(validationPaths(false));
    await expect(runOperation(off, getPrice, { address: ADDRESS, chain: 'eth' })).resolves.toEqual(body);
    await expect(runOperation(clientWith(), getPrice, { address: ADDRESS, chain: 'eth' })).resolves.toEqual(
      body,
    );
  });

  it('is a boolean, or a ValidationError naming it', () => {
    expect(() =>
      createClient({ apiKey: 'test-2f9a7c31e8d54b60', fastValidation: 'yes' as unknown as boolean }),
    ).toThrow(/fastValidation: must be true or false/);
  });

  it("a client of one's own (no createClient) gets the shortcuts without code", () => {
    expect(validationOf({ request: () => undefined, redact: String })).toBe(validationPaths(true));
  });
});
