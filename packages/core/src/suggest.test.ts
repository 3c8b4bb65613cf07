import { describe, expect, it } from 'vitest';
import { didYouMean, nearest, shown } from './suggest.js';

describe('nearest', () => {
  const options = ['apiKey', 'baseUrls', 'timeoutMs', 'retry', 'chain', 'batch'];

  it.each([
    ['apikey', 'apiKey'],
    ['baseUrl', 'baseUrls'],
    ['chian', 'chain'],
    ['retyr', 'retry'],
    ['timeout', 'timeoutMs'],
    ['BATCH', 'batch'],
  ])('takes %s for %s', (input, meant) => {
    expect(nearest(input, options)).toBe(meant);
  });

  it('suggests nothing for an unrelated, empty or huge name', () => {
    expect(nearest('colour', options)).toBeUndefined();
    expect(nearest('', options)).toBeUndefined();
    expect(nearest('a'.repeat(40_000), options)).toBeUndefined();
    expect(didYouMean('colour', options)).toBe('');
    expect(didYouMean('chian', options)).toBe(' (did you mean "chain"?)');
  });
});

describe('shown', () => {
  it('quotes a value, cut to a readable length, whatever it is', () => {
    expect(shown('eth')).toBe('"eth"');
    expect(shown('x'.repeat(100))).toBe(`"${'x'.repeat(40)}…"`);
    expect(shown(Object.create(null))).toBe('"[object]"');
    expect(shown(12)).toBe('"12"');
  });
});
