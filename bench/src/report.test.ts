import { describe, expect, it } from 'vitest';
import { medianRun } from './repeat.ts';
import { type Comparison, type Results, toMarkdown } from './report.ts';

const runWith = (headline: number, small: number): Comparison => ({
  id: 'x',
  title: 'X',
  metric: 'm',
  unit: 'u',
  higherIsBetter: true,
  blockwire: 1,
  references: { a: 1 },
  ratios: { a: 1 },
  cpuRatios: { a: headline },
  rounds: 1,
  targets: [],
  cases: [{ name: 'small', blockwire: 1, references: { a: 1 }, ratios: { a: 1 }, cpuRatios: { a: small } }],
});

const results = (comparison: Comparison): Results => ({
  commit: 'abc',
  node: 'v24',
  machine: 'm',
  quick: false,
  repeat: 3,
  startedAt: '2026-11-28T00:00:00.000Z',
  durationSeconds: 1,
  load: { start: 0, end: 0 },
  niceness: 0,
  cores: 2,
  comparisons: [comparison],
});

describe('toMarkdown with --repeat', () => {
  it('lists each case’s client CPU ratios run by run, with how far the furthest lies from the median', () => {
    const folded = medianRun([runWith(1, 0.9), runWith(1, 1.0), runWith(1, 0.95)]);
    const markdown = toMarkdown(results(folded), 'pnpm bench --repeat 3');
    expect(markdown).toContain(
      '- Each case’s client CPU ratios, run by run: small: a 0.90, 1.00, 0.95 (±5.3 %).',
    );
    expect(markdown).toContain(
      '| the 3 runs’ client CPU ratios, every case’s too, within ±10 % of their median',
    );
  });
});
