import { describe, expect, it } from 'vitest';
import type * as z from 'zod/v4';
import * as entities from './operations.js';

const exported: Record<string, unknown> = { ...entities };

describe('@blockwire/entities/operations exports', () => {
  it('lists every operation of the contract, each with its SDK function and operation object', () => {
    expect(entities.operations.map((operation) => operation.id)).toEqual(
      expect.arrayContaining(['getEntitiesByCategory', 'searchEntities', 'getEntity', 'getEntityCategories']),
    );
    for (const operation of entities.operations) {
      expect(exported[operation.id]).toBeTypeOf('function');
      expect(exported[`${operation.id}Operation`]).toBe(operation);
    }
  });

  it('places every input field of every operation', () => {
    for (const operation of entities.operations) {
      const shape = (operation.input as unknown as z.ZodObject).shape;
      expect(Object.keys(operation.fields).sort()).toEqual(Object.keys(shape).sort());
    }
  });

  it('sends every call to the EVM data interface as a retryable GET', () => {
    for (const operation of entities.operations) {
      expect([operation.api, operation.method, operation.idempotent]).toEqual(['evm', 'GET', true]);
    }
  });
});
