import {
  adversarialString,
  KNOWN_ADVERSARIAL_INPUTS,
  LINEAR_TIME_LIMIT_MS,
  timeOf,
} from '@blockwire/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, encodedForms, MIN_MASKED_RUN, REDACTED, redactValue } from './redact.js';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.CanaryKey-7f3a9c1e5b2d4f60aa81';
const redact = createRedactor([KEY]);

describe('createRedactor', () => {
  it.each([
    ['the key', KEY],
    ['lower-cased', KEY.toLowerCase()],
    ['upper-cased', KEY.toUpperCase()],
    ['a 16-character prefix', KEY.slice(0, 16)],
    ['its last 12 characters', KEY.slice(-12)],
    [`a run of ${MIN_MASKED_RUN} from the middle`, KEY.slice(20, 20 + MIN_MASKED_RUN)],
  ])('masks %s', (_, echo) => {
    const out = redact(`key=${echo}; bye`);
    expect(out).toBe(`key=${REDACTED}; bye`);
  });

  it('masks the URL-encoded form of a key with characters that get encoded, and runs of it', () => {
    const key = 'has/slash+plus=9f8e7d';
    const encoded = encodeURIComponent(key);
    const masks = createRedactor([key]);
    expect(masks(`/eth/${encoded}`)).toBe(`/eth/${REDACTED}`);
    expect(masks(`/eth/${encoded.toLowerCase().slice(0, 12)}`)).toBe(`/eth/${REDACTED}`);
  });

  describe('encoded echoes', () => {
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const base64url = (text: string) => Buffer.from(text).toString('base64url');
    const hex = (text: string) => Buffer.from(text).toString('hex');
    // Inside a longer encoded text the key's bytes may start at any offset of a 3-byte group.
    const echoes: [string, string][] = [];
    for (const [name, encode] of [
      ['base64', base64],
      ['base64url', base64url],
      ['hex', hex],
      ['upper-case hex', (text: string) => hex(text).toUpperCase()],
      ['percent-encoded (every byte)', (text: string) => hex(text).replace(/(..)/g, '%$1')],
    ] as const) {
      for (const prefix of ['', 'a', 'ab', 'abc']) {
        for (const variant of [KEY, KEY.toUpperCase(), KEY.toLowerCase()]) {
          echoes.push([
            `${name}, ${prefix.length} bytes before, ${variant === KEY ? 'as given' : 'case changed'}`,
            encode(`${prefix}${variant}!tail`),
          ]);
        }
      }
    }

    it.each(echoes)('masks the key in %s', (_, echo) => {
      const out = redact(`seen: ${echo} end`);
      expect(out).toContain(REDACTED);
      // Nothing of the encoded key is left that decodes back to a run of the key.
      for (const decoded of [
        Buffer.from(out.replace(/[^A-Za-z0-9+/=_-]/g, ''), 'base64').toString('latin1'),
        out,
      ]) {
        expect(decoded.toLowerCase()).not.toContain(KEY.slice(0, MIN_MASKED_RUN).toLowerCase());
      }
      expect(out.toLowerCase()).not.toContain(hex(KEY.slice(0, MIN_MASKED_RUN)));
    });

    it('masks a cut-short base64 echo from the middle of the key', () => {
      const middle = base64(KEY.slice(6, 6 + 3 * MIN_MASKED_RUN));
      expect(redact(`x ${middle.slice(4, 4 + 12)} y`)).toBe(`x ${REDACTED} y`);
    });

    it('masks the encoded key as a whole word, and takes as many characters as the key bytes it stands for', () => {
      const forms = encodedForms(KEY).map((form) => form.text);
      expect(forms).toContain(hex(KEY));
      expect(forms).toContain(base64(KEY.slice(0, 51)));
      // A hex run shorter than MIN_MASKED_RUN bytes of the key stays: hashes and addresses are hex too.
      const shortHex = hex(KEY.slice(10, 10 + MIN_MASKED_RUN - 1));
      expect(redact(`0x${shortHex}`)).toBe(`0x${shortHex}`);
    });

    it('leaves ordinary hex and base64 alone', () => {
      const text = `0x52908400098527886e0f7030069857d2e4169ee7 ${base64('hello world, nothing secret here')}`;
      expect(redact(text)).toBe(text);
    });
  });

  it(`leaves shorter runs and unrelated text alone (the rule: ${MIN_MASKED_RUN} characters or the whole key)`, () => {
    const text = `hello ${KEY.slice(3, 3 + MIN_MASKED_RUN - 1)} world 0x52908400098527886e0f7030069857d2e4169ee7`;
    expect(redact(text)).toBe(text);
  });

  it('masks a key shorter than the run length whole, in any case, and only whole', () => {
    const short = createRedactor(['Ab1']);
    expect(short('ab1 AB1 Ab1 a-b-1 Ab')).toBe('*** *** *** a-b-1 Ab');
  });

  it('keeps non-ASCII text intact around a masked run', () => {
    expect(redact(`İ€😀${KEY.toUpperCase()}😀`)).toBe(`İ€😀${REDACTED}😀`);
  });

  it('is linear on 40,000-character inputs, key characters included', () => {
    const pieces = [...new Set(KEY)].concat(['\uD800', ' ', '%']);
    fc.assert(
      fc.property(adversarialString(pieces), (input) => {
        expect(timeOf(() => redact(input.text))).toBeLessThan(LINEAR_TIME_LIMIT_MS);
      }),
      { numRuns: 50, examples: [...KNOWN_ADVERSARIAL_INPUTS, [{ text: KEY.repeat(800) }]] },
    );
  });
});

describe('redactValue', () => {
  const nest = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { [`level${i}`]: value };
    return value;
  };

  it.each([21, 30, 64, 65, 5_000])('never returns the key unmasked, %i levels deep', (depth) => {
    const out = JSON.stringify(redactValue(nest(depth, { echo: KEY, [KEY]: 1 }), redact));
    expect(out).not.toContain(KEY);
    expect(out.toLowerCase()).not.toContain(KEY.slice(0, MIN_MASKED_RUN).toLowerCase());
  });

  it('keeps what it can show, masked, and cuts off only what lies too deep', () => {
    expect(redactValue(nest(3, KEY), redact)).toEqual({ level2: [{ level0: REDACTED }] });
    expect(JSON.stringify(redactValue(nest(100, 'ok'), redact))).toContain('[nested too deep: not shown]');
  });

  it('survives cycles', () => {
    const looped: Record<string, unknown> = { echo: KEY };
    looped.self = looped;
    looped.list = [looped];
    expect(redactValue(looped, redact)).toEqual({
      echo: REDACTED,
      self: '[circular]',
      list: ['[circular]'],
    });
    const shared = { echo: KEY };
    expect(redactValue({ a: shared, b: shared }, redact)).toEqual({
      a: { echo: REDACTED },
      b: { echo: REDACTED },
    });
  });
});
