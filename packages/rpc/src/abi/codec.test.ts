// The ABI codec against viem's (an independent implementation), over the types fragments use.
import { parseAbiParameters } from 'abitype';
import { decodeAbiParameters, encodeAbiParameters } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeParameters, encodeParameters } from './codec.js';

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CASES: [string, unknown[]][] = [
  ['uint256, address, bool', [2n ** 256n - 1n, ALICE, true]],
  ['int8, int256, uint8', [-1n, -(2n ** 255n), 255n]],
  [
    'bytes4, bytes, string',
    ['0xdeadbeef', '0x0102030405', 'héllo, wörld — a string longer than thirty-two bytes'],
  ],
  [
    'uint256[], string[]',
    [
      [1n, 2n, 3n],
      ['a', '', 'ccc'],
    ],
  ],
  ['uint16[3], address[2][]', [[1n, 2n, 3n], [[ALICE, ALICE]]]],
  ['(uint256 amount, string memo), (address, bytes)[]', [{ amount: 5n, memo: 'hi' }, [[ALICE, '0xff']]]],
  ['string', ['']],
];

const bigintsOf = (value: unknown): unknown =>
  typeof value === 'number'
    ? BigInt(value)
    : Array.isArray(value)
      ? value.map(bigintsOf)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bigintsOf(v)]))
        : value;

describe('ABI codec', () => {
  for (const [types, values] of CASES) {
    it(`encodes and decodes (${types}) as viem does`, () => {
      const params = parseAbiParameters(types);
      const ours = `0x${encodeParameters(params, values)}`;
      expect(ours).toBe(encodeAbiParameters(params, values as never));
      const decoded = decodeParameters(params, ours);
      const theirs = decodeAbiParameters(params, ours as `0x${string}`);
      // viem gives integers of up to 48 bits as numbers; ours are bigints whatever the size.
      expect(decoded).toEqual(bigintsOf(theirs));
    });
  }

  it('names the value that does not fit', () => {
    const params = parseAbiParameters('uint8, address');
    expect(() => encodeParameters(params, [256n, ALICE])).toThrow(
      'args.0: must fit uint8 (0 to 255), got 256',
    );
    expect(() => encodeParameters(params, [1n, ALICE.replace('Fd6', 'fd6')])).toThrow(
      /args\.1: has a wrong EIP-55 checksum/,
    );
    expect(() => encodeParameters(params, [1n])).toThrow('args: must have 2 value(s), got 1');
  });

  it('refuses data shorter than its types', () => {
    expect(() => decodeParameters(parseAbiParameters('uint256'), '0x01')).toThrow(
      /shorter than its types need/,
    );
    expect(() =>
      decodeParameters(parseAbiParameters('string'), `0x${'00'.repeat(31)}20${'00'.repeat(31)}ff`),
    ).toThrow(/shorter than its length says|past its end/);
  });
});
