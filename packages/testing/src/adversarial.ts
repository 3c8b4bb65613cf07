/**
 * Inputs built to make a backtracking regex or a naive scan do quadratic work, for property tests
 * of every schema and parser that reads untrusted text.
 */
import fc from 'fast-check';

/** Long enough that quadratic work takes seconds where linear work takes well under a millisecond. */
export const ADVERSARIAL_LENGTH = 40_000;

/**
 * How much CPU time one call may take on an {@link ADVERSARIAL_LENGTH}-character input. Linear
 * work takes a few milliseconds; the quadratic numeric regex this guards against took 5,700 ms, so
 * the bound is generous without letting quadratic work pass.
 */
export const LINEAR_TIME_LIMIT_MS = 500;

/** Pieces that numbers, hex, ids, paths and keys are made of, and what breaks them. */
export const ADVERSARIAL_PIECES: readonly string[] = [
  '0',
  '1',
  '9',
  '.',
  '-',
  '+',
  'e',
  'E',
  'x',
  '0x',
  'a',
  'f',
  'F',
  'g',
  'z',
  ' ',
  '\t',
  '/',
  '\\',
  '%',
  '%2e',
  '%2E',
  '..',
  '_',
  ':',
  '\u00e9',
  '\uD800',
  '\uDC00',
  '\u0000',
];

/** One adversarial input: its text, shown compactly when fast-check reports a counterexample. */
export interface AdversarialInput {
  readonly text: string;
}

/**
 * A short unit of `pieces` repeated to `length` characters, between a short prefix and suffix, so
 * a match can fail only at the very end (the shape that makes backtracking blow up).
 */
export function adversarialString(
  pieces: readonly string[] = ADVERSARIAL_PIECES,
  length = ADVERSARIAL_LENGTH,
): fc.Arbitrary<AdversarialInput> {
  const piece = fc.constantFrom(...pieces);
  const few = (min: number, max: number) =>
    fc.array(piece, { minLength: min, maxLength: max }).map((parts) => parts.join(''));
  return fc.tuple(few(0, 2), few(1, 3), few(0, 2)).map(([prefix, unit, suffix]) => {
    const repeats = Math.ceil(length / unit.length);
    return {
      text: `${prefix}${unit.repeat(repeats).slice(0, length)}${suffix}`,
      [fc.toStringMethod]: () =>
        `${JSON.stringify(prefix)} + ${JSON.stringify(unit)}.repeat(${repeats}) + ${JSON.stringify(suffix)}`,
    };
  });
}

/** Inputs known to blow up naive patterns, tried first by every property test (as `examples`). */
export const KNOWN_ADVERSARIAL_INPUTS: readonly [AdversarialInput][] = (
  [
    ['', '1', 'x'],
    ['', '0', 'e'],
    ['-', '1', '.x'],
    ['0x', 'f', 'g'],
    ['', '/', 'x'],
    ['', '.', '/'],
    ['', ' ', '1'],
    ['', '%2e', '/'],
    ['', 'a', '\uD800'],
  ] as const
).map(([prefix, unit, suffix]) => {
  const repeats = Math.ceil(ADVERSARIAL_LENGTH / unit.length);
  return [
    {
      text: `${prefix}${unit.repeat(repeats)}${suffix}`,
      [fc.toStringMethod]: () =>
        `${JSON.stringify(prefix)} + ${JSON.stringify(unit)}.repeat(${repeats}) + ${JSON.stringify(suffix)}`,
    },
  ];
});

/**
 * Milliseconds of CPU time `fn` takes to run once. Not wall time: on a busy machine the process
 * may wait hundreds of milliseconds for a core (a linear check once measured 334 ms that way),
 * which says nothing about the work done.
 */
export function timeOf(fn: () => unknown): number {
  const started = process.cpuUsage();
  fn();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}
