import { describe, expect, it } from 'vitest';
import type * as z from 'zod/v4';
import * as prices from './operations.js';

const exported: Record<string, unknown> = { ...prices };

describe('@blockwire/prices/operations exports', () => {
  it('lists every operation, each with its SDK function and operation object', () => {
    expect(prices.operations.map((operation) => operation.id)).toEqual([
      'getEvmTokenPrice',
      'getSolanaTokenPrices',
    ]);
    for (const operation of prices.operations) {
      expect(exported[operation.id]).toBeTypeOf('function');
      expect(exported[`${operation.id}Operation`]).toBe(operation);
    }
  });

  it('places every input field of every operation', () => {
    for (const operation of prices.operations) {
      const shape = (operation.input as unknown as z.ZodObject).shape;
      expect(Object.keys(operation.fields).sort()).toEqual(Object.keys(shape).sort());
    }
  });
});
