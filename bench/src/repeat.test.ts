import { describe, expect, it } from 'vitest';
import { medianRun } from './repeat.ts';
import type { Comparison } from './report.ts';

const run = (ratio: number, cpu: number, blockwire: number): Comparison => ({
  id: 'x',
  title: 'x',
  metric: 'm',
  unit: 'u',
  higherIsBetter: true,
  blockwire,
  references: { a: 1 },
  ratios: { a: ratio },
  cpuRatios: { a: cpu },
  rounds: 1,
  targets: [],
});

describe('medianRun', () => {
  it('keeps every run and reports each ratio’s median over the runs', () => {
    const folded = medianRun([run(1.2, 0.9, 10), run(0.8, 1.1, 20), run(1.0, 1.0, 30)]);
    expect(folded.ratios).toEqual({ a: 1.0 });
    expect(folded.cpuRatios).toEqual({ a: 1.0 });
    expect(folded.blockwire).toBe(30);
    expect(folded.repeats).toEqual([
      { ratios: { a: 1.2 }, cpuRatios: { a: 0.9 } },
      { ratios: { a: 0.8 }, cpuRatios: { a: 1.1 } },
      { ratios: { a: 1.0 }, cpuRatios: { a: 1.0 } },
    ]);
  });
});
