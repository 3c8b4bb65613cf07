import { describe, expect, it } from 'vitest';
import { concise, fitToBudget, LONG_TEXT, type Shaped } from './answers.js';

const bytes = (shaped: Shaped) => Buffer.byteLength(JSON.stringify(shaped));

describe('concise', () => {
  it('leaves out long texts and lists of them, and names each', () => {
    const block = {
      number: '0x10',
      logsBloom: `0x${'0'.repeat(512)}`,
      proof: ['0xab', `0x${'f'.repeat(600)}`],
      transactions: [{ hash: '0x01', input: `0x${'a'.repeat(LONG_TEXT)}` }],
    };
    expect(concise(block)).toEqual({
      result: { number: '0x10', transactions: [{ hash: '0x01' }] },
      omitted: ['result.logsBloom', 'result.proof', 'result.transactions[0].input'],
      cut: [],
    });
  });

  it(`keeps a text of exactly ${LONG_TEXT} characters`, () => {
    expect(concise({ text: 'x'.repeat(LONG_TEXT) }).omitted).toEqual([]);
  });
});

describe('fitToBudget', () => {
  const list = Array.from({ length: 1_000 }, (_, i) => ({ index: i, name: `token number ${i}` }));

  it('leaves an answer within the budget as it is', () => {
    const shaped = concise({ items: list.slice(0, 3) });
    expect(fitToBudget(shaped, 10_000, bytes)).toBe(shaped);
  });

  it('shortens the largest list to what fits, and says how many of how many are shown', () => {
    const fitted = fitToBudget(concise({ items: list, small: [1, 2] }), 8_000, bytes);
    expect(bytes(fitted)).toBeLessThanOrEqual(8_000);
    const shown = (fitted.result as { items: unknown[] }).items.length;
    expect(shown).toBeGreaterThan(100);
    expect(fitted.cut).toEqual([{ path: 'result.items', shown, total: 1_000 }]);
    expect((fitted.result as { small: number[] }).small).toEqual([1, 2]);
  });

  it('cuts nested lists too, and a single text too large on its own is left out and named', () => {
    const nested = { blocks: [{ transactions: list }], note: 'n'.repeat(20_000) };
    const fitted = fitToBudget({ result: nested, omitted: [], cut: [] }, 4_000, bytes);
    expect(bytes(fitted)).toBeLessThanOrEqual(4_000);
    expect(fitted.omitted).toContain('result.note');
    expect(fitted.cut.length).toBeGreaterThan(0);
  });

  it('gives up on an answer that cannot fit as null, and says so', () => {
    const fitted = fitToBudget({ result: 'x'.repeat(10_000), omitted: [], cut: [] }, 1_000, bytes);
    expect(fitted).toEqual({ result: null, omitted: ['result'], cut: [] });
  });
});
