import { ValidationError } from '@blockwire/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { toQuantity } from './inputs.js';
import { defineRpcMethod, encodeParams, paramsToInput } from './method.js';
import { getProofMethod } from './methods/getProof.js';

const documented = z.string().meta({ description: 'An argument' });
const presentation = (id: string) => ({
  id,
  resource: 'rpcTest',
  action: id,
  displayName: 'Test',
  summary: 'A test method',
  examples: [{ input: {}, response: null }] as const,
});

describe('defineRpcMethod', () => {
  it('refuses args that do not list every params field', () => {
    expect(() =>
      defineRpcMethod({
        ...presentation('broken'),
        method: 'eth_broken',
        args: ['a'],
        params: z.object({ a: documented, b: documented }),
        result: z.unknown(),
      }),
    ).toThrow(/args \[a\] must list every params field \(a, b\)/);
  });

  it('refuses an argument without a description, naming it', () => {
    expect(() =>
      defineRpcMethod({
        ...presentation('undocumented'),
        method: 'eth_undocumented',
        args: ['a', 'b'],
        params: z.object({ a: documented, b: z.string() }),
        result: z.unknown(),
      }),
    ).toThrow(/undocumented: field\(s\) b have no description/);
  });

  it('refuses a second method with the same resource and action', () => {
    expect(() =>
      defineRpcMethod({
        ...presentation('getProofAgain'),
        resource: 'rpc',
        action: 'getProof',
        method: 'eth_getProof',
        args: ['a'],
        params: z.object({ a: documented }),
        result: z.unknown(),
      }),
    ).toThrow(/rpc\.getProof is already used by getProof/);
  });
});

describe('encodeParams and paramsToInput', () => {
  const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

  it('turn named arguments into the params array and back', () => {
    const params = encodeParams(getProofMethod, { address: ADDRESS, storageKeys: [], blockTag: 10 });
    expect(params).toEqual([ADDRESS, [], '0xa']);
    expect(paramsToInput(getProofMethod, params)).toEqual({
      address: ADDRESS,
      storageKeys: [],
      blockTag: '0xa',
    });
    // Wire params validate again unchanged, as an emulator checking incoming calls would do.
    expect(encodeParams(getProofMethod, paramsToInput(getProofMethod, params) as never)).toEqual(params);
  });

  it('name too many params as an error', () => {
    expect(() => paramsToInput(getProofMethod, [ADDRESS, [], 'latest', 'extra'])).toThrow(ValidationError);
  });
});

describe('toQuantity', () => {
  it.each([
    [0, '0x0'],
    [255, '0xff'],
    [2n ** 64n, '0x10000000000000000'],
    ['0x0000', '0x0'],
    ['0xABC', '0xabc'],
    ['42', '0x2a'],
  ])('%s → %s', (value, expected) => {
    expect(toQuantity(value)).toBe(expected);
  });

  it.each([[-1], [1.5], [Number.MAX_SAFE_INTEGER + 1], [-1n], ['0x'], ['0xg'], ['-5'], [''], [null], [true]])(
    'rejects %s',
    (value) => {
      expect(toQuantity(value)).toBeUndefined();
    },
  );
});
