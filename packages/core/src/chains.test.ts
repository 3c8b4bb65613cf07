import { describe, expect, it } from 'vitest';
import { EVM_CHAINS, findChain, resolveChain, rpcChainSegment } from './chains.js';
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

  it('suggests the chain a common or mistyped name means, without resolving it', () => {
    for (const [input, meant] of [
      ['ethereum', 'eth'],
      ['Ethereum', 'eth'],
      ['matic', 'polygon'],
      ['polgon', 'polygon'],
      ['arbitrum-one', 'arbitrum'],
      ['bsc_testnet', 'bsc testnet'],
      ['avax', 'avalanche'],
    ]) {
      expect(findChain(input!)).toBeUndefined();
      expect(() => resolveChain(input!)).toThrow(`(did you mean "${meant}"?)`);
    }
    expect(() => resolveChain('constructor')).not.toThrow(/did you mean/);
    expect(() => resolveChain('zzzzzz')).not.toThrow(/did you mean/);
  });

  it('refuses a 40,000-character chain quickly, and does not echo it whole', () => {
    for (const input of ['1'.repeat(40_000), `0x${'f'.repeat(40_000)}`, 'e'.repeat(40_000)]) {
      const started = performance.now();
      expect(findChain(input)).toBeUndefined();
      let message = '';
      try {
        resolveChain(input);
      } catch (error) {
        message = (error as Error).message;
      }
      // Room for a busy machine; a quadratic pattern over 40,000 characters takes seconds.
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(message).toMatch(/unknown chain "(1+|0xf+|e+)…"/);
      expect(message.length).toBeLessThan(1_000);
    }
  });

  it('finds nothing, without throwing, for a value of another type from plain JavaScript', () => {
    for (const input of [null, undefined, {}, [], true, Object.create(null)]) {
      expect(findChain(input as never)).toBeUndefined();
      expect(() => resolveChain(input as never)).toThrow(ValidationError);
    }
  });
});

describe('rpcChainSegment', () => {
  it('spells a chain as a node URL path segment: hyphens for spaces, nothing else changed', () => {
    expect(rpcChainSegment(resolveChain('bsc testnet'))).toBe('bsc-testnet');
    expect(rpcChainSegment(resolveChain('eth'))).toBe('eth');
  });

  it.each(EVM_CHAINS.map((chain) => [chain.name, chain]))(
    '%s: a segment that finds its chain again',
    (_name, chain) => {
      const segment = rpcChainSegment(chain);
      expect(segment).toMatch(/^[a-z0-9-]+$/);
      expect(findChain(segment)).toBe(chain);
    },
  );
});
