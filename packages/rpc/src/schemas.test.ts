import { passesUnchanged } from '@blockwire/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockSchema, hex, isHex, receiptSchema } from './schemas.js';

describe('isHex', () => {
  it('agrees with /^0x[0-9a-fA-F]*$/ on any string', () => {
    const pattern = /^0x[0-9a-fA-F]*$/;
    // Lengths on both sides of the long-string cut-over (130), and char codes past 255 whose low
    // byte is a hex digit's (İ U+0130, š U+0161, Ł U+0141, う U+3046 read as 0, a, A, F by a mask).
    const hexish = fc
      .array(fc.constantFrom(...'0123456789abcdefABCDEFxXgG:@`/ \u0130\u0161\u0141\u3046\u{1F600}'), {
        maxLength: 12,
      })
      .chain((odd) =>
        fc.integer({ min: 0, max: 200 }).chain((length) =>
          fc.integer({ min: 0, max: length }).map((at) => {
            const digits = '0123456789abcdefABCDEF';
            const body = Array.from({ length }, (_, i) => digits[(i * 7) % digits.length]).join('');
            return `0x${body.slice(0, at)}${odd.join('')}${body.slice(at)}`;
          }),
        ),
      );
    fc.assert(
      fc.property(fc.oneof(fc.string(), hexish, fc.constantFrom('', '0', '0x', '0X1', 'x0')), (text) => {
        expect(isHex(text)).toBe(pattern.test(text));
      }),
      { numRuns: 5_000 },
    );
    for (const value of [1, null, undefined, {}, ['0x1']]) expect(isHex(value)).toBe(false);
  });

  it('is what the hex schema checks', () => {
    expect(hex.safeParse('0xAbC').success).toBe(true);
    expect(hex.safeParse('0xg').success).toBe(false);
  });
});

describe('answers that pass unchanged', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  const tx = {
    blockHash: hash,
    blockNumber: '0x1',
    from: hash.slice(0, 42),
    gas: '0x5208',
    hash,
    input: '0x',
    nonce: '0x0',
    to: null,
    transactionIndex: '0x0',
    value: '0x0',
    chainExtra: { kept: [1] },
  };
  const block = {
    difficulty: '0x0',
    extraData: '0x',
    gasLimit: '0x1',
    gasUsed: '0x1',
    hash,
    logsBloom: `0x${'00'.repeat(256)}`,
    miner: hash.slice(0, 42),
    mixHash: hash,
    nonce: '0x0000000000000000',
    number: '0x1',
    parentHash: hash,
    receiptsRoot: hash,
    sha3Uncles: hash,
    size: '0x1',
    stateRoot: hash,
    timestamp: '0x1',
    transactionsRoot: hash,
    uncles: [],
    transactions: [tx],
  };

  it('are the node’s own objects, not copies', () => {
    expect(passesUnchanged(blockSchema, block)).toBe(true);
    expect(blockSchema.parse(block)).toEqual(block);
  });

  it('still fail on a broken field, the way zod says', () => {
    const broken = { ...block, transactions: [{ ...tx, value: 10 }] };
    expect(passesUnchanged(blockSchema, broken)).toBe(false);
    expect(blockSchema.safeParse(broken).success).toBe(false);
    expect(passesUnchanged(receiptSchema, { ...tx, logs: 'none' })).toBe(false);
  });
});
