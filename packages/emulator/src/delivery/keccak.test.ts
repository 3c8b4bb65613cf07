import { signBody } from '@blockwire/streams';
import { describe, expect, it } from 'vitest';
import { referenceKeccak256 } from './test-support.js';

describe('the reference keccak256 the delivery tests check signatures with', () => {
  it('matches the published vectors', () => {
    expect(referenceKeccak256('')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(referenceKeccak256('abc')).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });

  it('agrees with hash-wasm on inputs spanning several blocks and on unicode', async () => {
    for (const secret of ['a'.repeat(134), 'b'.repeat(135), 'c'.repeat(300), 'ключ-秘密-🔑']) {
      expect(`0x${referenceKeccak256(`{}${secret}`)}`).toBe(await signBody({}, secret));
    }
  });
});
