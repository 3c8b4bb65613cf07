import { describe, expect, it } from 'vitest';
import { EVM_CHAINS, findChain, resolveChain } from './chains.js';
import { ValidationError } from './errors.js';

describe('chain registry', () => {
  it('holds the 32 chains of the contract, with unique names and ids', () => {
    expect(EVM_CHAINS).toHaveLength(32);
    expect(new Set(EVM_CHAINS.map((c) => c.name)).size).toBe(32);
    expect(new Set(EVM_CHAINS.map((c) => BigInt(c.hexId))).size).toBe(32);
  });

  it.each(EVM_CHAINS.map((c) => [c.name, c.hexId]))(
    'resolves %s / %s by name, hex id and decimal id',
    (name, hexId) => {
      const expected = { name, hexId };
      expect(resolveChain(name)).toEqual(expected);
      expect(resolveChain(name.toUpperCase())).toEqual(expected);
      expect(resolveChain(hexId)).toEqual(expected);
      expect(resolveChain(hexId.toUpperCase().replace('0X', '0x'))).toEqual(expected);
      expect(resolveChain(`0x000${hexId.slice(2)}`)).toEqual(expected);
      const decimal = BigInt(hexId);
      expect(resolveChain(Number(decimal))).toEqual(expected);
      expect(resolveChain(decimal)).toEqual(expected);
      expect(resolveChain(decimal.toString())).toEqual(expected);
    },
  );

  it('treats spaces and hyphens in names alike', () => {
    expect(findChain('bsc-testnet')?.hexId).toBe('0x61');
    expect(findChain('flow testnet')?.hexId).toBe('0x221');
    expect(findChain(' Base Sepolia ')?.hexId).toBe('0x14a34');
  });

  it('rejects an unknown chain with a ValidationError that names the valid ones', () => {
    for (const bad of ['ethereum-classic', '0x2', 2, 1.5, -1, '']) {
      expect(findChain(bad)).toBeUndefined();
      let caught: unknown;
      try {
        resolveChain(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ValidationError);
      const error = caught as ValidationError;
      expect(error.issues[0]?.path).toBe('chain');
      expect(error.message).toContain('eth (0x1)');
      expect(error.message).toContain('monad (0x8f)');
    }
  });
});
