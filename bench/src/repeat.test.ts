import { describe, expect, it } from 'vitest';
import { medianRun } from './repeat.ts';
import { type Comparison, figureTarget } from './report.ts';

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

describe('medianRun targets', () => {
  const withTargets = (ratio: number, cpu: number, countMet: boolean): Comparison => ({
    ...run(ratio, cpu, 1),
    cases: [{ name: 'big', blockwire: 1, references: { a: 1 }, ratios: { a: ratio * 2 } }],
    targets: [
      { text: 'ratio ≥ 1', met: ratio >= 1, rule: { figure: 'ratios', reference: 'a', atLeast: 1 } },
      {
        text: 'big case ≥ 2.5',
        met: ratio * 2 >= 2.5,
        rule: { figure: 'ratios', reference: 'a', case: 'big', atLeast: 2.5 },
      },
      { text: 'a count', met: countMet },
    ],
  });

  it('judges a target on a ratio again on the median, and any other one on every run', () => {
    // Ratios 0.9, 1.3, 1.1: median 1.1 meets ≥ 1 though the run with 0.9 did not; the case's
    // median 2.2 misses 2.5 though one run met it; the count was missed in one run.
    const folded = medianRun([
      withTargets(0.9, 1, true),
      withTargets(1.3, 1, false),
      withTargets(1.1, 1, true),
    ]);
    expect(folded.cases?.[0]?.ratios).toEqual({ a: 2.2 });
    expect(folded.targets.map((t) => [t.text, t.met])).toEqual([
      ['ratio ≥ 1', true],
      ['big case ≥ 2.5', false],
      ['a count', false],
      [expect.stringContaining('within ±10 %'), true],
    ]);
  });

  it('adds a target that the runs’ CPU ratios agree within ±10 % of their median', () => {
    const agreeing = medianRun([run(1, 0.95, 1), run(1, 1.0, 1), run(1, 1.08, 1)]);
    expect(agreeing.repeatDeviation?.a).toBeCloseTo(0.08);
    expect(agreeing.targets.at(-1)?.met).toBe(true);
    const apart = medianRun([run(1, 0.8, 1), run(1, 1.0, 1), run(1, 1.05, 1)]);
    expect(apart.repeatDeviation?.a).toBeCloseTo(0.2);
    expect(apart.targets.at(-1)).toEqual({
      text: 'the 3 runs’ client CPU ratios within ±10 % of their median (outside it: ±20.0 %: a)',
      met: false,
    });
    expect(agreeing.targets.at(-1)?.text).toBe(
      'the 3 runs’ client CPU ratios within ±10 % of their median (furthest: ±8.0 %: a)',
    );
  });

  it('adds no agreement target for a single run', () => {
    expect(medianRun([run(1, 1, 1)]).targets).toEqual([]);
  });
});

describe('medianRun cases', () => {
  it('judges a target on a case’s client CPU ratio on the runs’ median of it', () => {
    const withCase = (cpu: number, low: number, high: number): Comparison => ({
      ...run(1, 1, 1),
      cases: [
        {
          name: 'small',
          blockwire: 1,
          references: { a: 1 },
          ratios: { a: 1 },
          cpuRatios: { a: cpu },
          cpuRatioRanges: { a: [low, high] },
        },
      ],
      targets: [
        {
          text: 'small case CPU ≥ 0.9',
          met: cpu >= 0.9,
          rule: { figure: 'cpuRatios', reference: 'a', case: 'small', atLeast: 0.9 },
        },
      ],
    });
    // CPU ratios 0.85, 0.95, 0.92: the median 0.92 meets ≥ 0.9 though one run did not.
    const folded = medianRun([
      withCase(0.85, 0.8, 0.9),
      withCase(0.95, 0.9, 1.0),
      withCase(0.92, 0.88, 0.97),
    ]);
    expect(folded.cases?.[0]?.cpuRatios).toEqual({ a: 0.92 });
    expect(folded.cases?.[0]?.cpuRatioRanges).toEqual({ a: [0.8, 1.0] });
    expect(folded.targets[0]).toMatchObject({ text: 'small case CPU ≥ 0.9', met: true });
    const missed = medianRun([withCase(0.85, 0.8, 0.9), withCase(0.95, 0.9, 1.0), withCase(0.88, 0.8, 0.9)]);
    expect(missed.targets[0]?.met).toBe(false);
  });
});

describe('medianRun ranges', () => {
  it('spans the rounds of every run, so each median lies within its range', () => {
    const ranged = (ratio: number, low: number, high: number): Comparison => ({
      ...run(ratio, 1, 1),
      spread: { blockwire: [1, 1], references: { a: [1, 1] }, ratios: { a: [low, high] } },
    });
    const folded = medianRun([ranged(1.0, 0.9, 1.1), ranged(1.4, 1.3, 1.6), ranged(1.2, 1.1, 1.25)]);
    expect(folded.ratios.a).toBe(1.2);
    expect(folded.spread?.ratios.a).toEqual([0.9, 1.6]);
  });
});

describe('medianRun CPU per call', () => {
  it('judges an overhead in µs on the median of the runs’ paired overheads, and keeps every run’s', () => {
    const withCpu = (overhead: number, blockwire: number, reference: number): Comparison => {
      const cpuOverheads = { a: overhead };
      const rule = { figure: 'cpuOverheads', reference: 'a', atMostMicros: 5 } as const;
      return {
        ...run(1, 1, 1),
        cpuPerCall: { blockwire, references: { a: reference } },
        cpuOverheads,
        targets: [figureTarget('overhead ≤ 5 µs', rule, { cpuOverheads })],
      };
    };
    // Paired overheads 4, 7 and 4.5 µs: met on their median (4.5), though one run is over, and
    // though the medians of the contenders' CPU per call (44 and 37 µs) are 7 µs apart.
    const folded = medianRun([withCpu(4, 40, 36), withCpu(7, 44, 37), withCpu(4.5, 52, 48)]);
    expect(folded.cpuOverheads).toEqual({ a: 4.5 });
    expect(folded.cpuPerCall).toEqual({ blockwire: 44, references: { a: 37 } });
    expect(folded.targets[0]).toMatchObject({ text: 'overhead ≤ 5 µs', met: true });
    expect(folded.repeats?.map((r) => r.cpuOverheads?.a)).toEqual([4, 7, 4.5]);
    expect(folded.repeats?.[1]?.cpuPerCall).toEqual({ blockwire: 44, references: { a: 37 } });
    // Paired overheads 6, 7 and 4.5 µs: their median (6) is over.
    const over = medianRun([withCpu(6, 40, 36), withCpu(7, 44, 37), withCpu(4.5, 52, 48)]);
    expect(over.targets[0]?.met).toBe(false);
  });
});

describe('medianRun agreement of cases', () => {
  const withCases = (headline: number, small: number, big: number): Comparison => ({
    ...run(1, headline, 1),
    cases: [
      { name: 'small', blockwire: 1, references: { a: 1 }, ratios: { a: 1 }, cpuRatios: { a: small } },
      { name: 'big', blockwire: 1, references: { a: 1 }, ratios: { a: 1 }, cpuRatios: { a: big } },
    ],
  });

  it('keeps each case’s CPU ratios run by run, and how far they lie from their median', () => {
    const folded = medianRun([withCases(1, 0.9, 1.5), withCases(1, 1.0, 1.3), withCases(1, 0.95, 1.7)]);
    const small = folded.cases?.find((k) => k.name === 'small');
    expect(small?.repeatCpuRatios).toEqual([{ a: 0.9 }, { a: 1.0 }, { a: 0.95 }]);
    expect(small?.cpuRatios).toEqual({ a: 0.95 });
    expect(small?.repeatDeviation?.a).toBeCloseTo(0.0526, 3);
    expect(folded.targets.at(-1)).toEqual({
      text: 'the 3 runs’ client CPU ratios, every case’s too, within ±10 % of their median (outside it: ±13.3 %: big, a)',
      met: false,
    });
  });

  it('names every ratio outside the agreement, furthest first', () => {
    // The small case 0.8, 1.0, 1.0 (±20 %), the big one 1.15, 1.3, 1.3 (±11.5 %), the headline level.
    const folded = medianRun([withCases(1, 0.8, 1.15), withCases(1, 1.0, 1.3), withCases(1, 1.0, 1.3)]);
    expect(folded.targets.at(-1)?.text).toContain('(outside it: ±20.0 %: small, a; ±11.5 %: big, a)');
  });

  it('holds a case to the agreement even when the headline ratios agree', () => {
    // Headline 1.0 in every run; the big case 1.4, 1.9, 1.95: its median 1.9 would meet a target
    // of 1.5 that one run missed by far, so the runs do not agree.
    const apart = medianRun([withCases(1, 1, 1.4), withCases(1, 1, 1.9), withCases(1, 1, 1.95)]);
    expect(apart.cases?.find((k) => k.name === 'big')?.cpuRatios).toEqual({ a: 1.9 });
    expect(apart.targets.at(-1)?.met).toBe(false);
    expect(apart.targets.at(-1)?.text).toContain('±26.3 %: big, a');
    const agreeing = medianRun([withCases(1, 1, 1.5), withCases(1, 1.02, 1.55), withCases(1, 0.98, 1.45)]);
    expect(agreeing.targets.at(-1)?.met).toBe(true);
  });
});

describe('medianRun with a headline that shows a case', () => {
  // Each run shows its least favourable case: 'small' in one run, 'large' in the others.
  const caseOf = (name: string, ratio: number, cpu: number, range: [number, number]) => ({
    name,
    blockwire: 1,
    references: { a: 1 },
    ratios: { a: ratio },
    ratioRanges: { a: range },
    cpuRatios: { a: cpu },
    cpuRatioRanges: { a: range },
  });
  const shown = (small: number, large: number, figures: [number, number]): Comparison => {
    const cases = [
      caseOf('small', small, small, [small - 1, small + 1]),
      caseOf('large', large, large, [large - 1, large + 1]),
    ];
    const worst = small < large ? cases[0]! : cases[1]!;
    return {
      ...run(worst.ratios.a, worst.cpuRatios.a, 1),
      cases,
      headlineCase: worst.name,
      spread: {
        blockwire: figures,
        references: { a: figures },
        ratios: { a: worst.ratioRanges.a },
        cpuRatios: { a: worst.cpuRatioRanges.a },
      },
    };
  };

  it('folds the case the median run showed, not a mix of each run’s', () => {
    const folded = medianRun([shown(5, 2, [10, 20]), shown(1.5, 3, [100, 200]), shown(6, 4, [30, 40])]);
    // Headlines 2 (large), 1.5 (small), 4 (large): the median run is the first, showing 'large',
    // whose median over the runs is 3 (not the 2 a mix of headlines would give).
    expect(folded.headlineCase).toBe('large');
    expect(folded.ratios).toEqual({ a: 3 });
    expect(folded.cpuRatios).toEqual({ a: 3 });
    expect(folded.repeats).toEqual([
      { ratios: { a: 2 }, cpuRatios: { a: 2 } },
      { ratios: { a: 3 }, cpuRatios: { a: 3 } },
      { ratios: { a: 4 }, cpuRatios: { a: 4 } },
    ]);
    // Ratio ranges: the case's over every run; figures' ranges: the runs that showed it.
    expect(folded.spread?.cpuRatios).toEqual({ a: [1, 5] });
    expect(folded.spread?.blockwire).toEqual([10, 40]);
    // Agreement is judged on the case's own runs: 2, 3, 4 lie ±33 % from 3.
    expect(folded.repeatDeviation?.a).toBeCloseTo(1 / 3);
  });
});

describe('medianRun with the least favourable case as its headline', () => {
  const three = (a: number, b: number, c: number): Comparison => {
    const cases = Object.entries({ a, b, c }).map(([name, value], i) => ({
      name,
      blockwire: 10 * (i + 1),
      references: { sdk: i + 1 },
      ratios: { sdk: value },
      cpuRatios: { sdk: value },
      cpuRatioRanges: { sdk: [value, value] as [number, number] },
    }));
    const worst = cases.reduce((low, k) => (k.cpuRatios.sdk < low.cpuRatios.sdk ? k : low));
    return {
      ...run(worst.ratios.sdk, worst.cpuRatios.sdk, 1),
      ratios: { sdk: worst.ratios.sdk },
      cpuRatios: { sdk: worst.cpuRatios.sdk },
      references: { sdk: 1 },
      cases,
      headlineCase: worst.name,
      leastFavourableTo: 'sdk',
      spread: {
        blockwire: [0, 99],
        references: { sdk: [0, 99] },
        ratios: { sdk: [0, 9] },
        cpuRatios: { sdk: [0, 9] },
      },
    };
  };

  it('shows the folded case with the lowest CPU ratio, not the one the median run showed', () => {
    // Each run's least favourable: a (1), b (1.5), c (1.8); the median run's is b. Folded, a and b
    // are at 5 and c at 2: c is the least favourable.
    const folded = medianRun([three(1, 5, 2), three(5, 1.5, 2), three(5, 5, 1.8)]);
    expect(folded.headlineCase).toBe('c');
    expect(folded.cpuRatios).toEqual({ sdk: 2 });
    expect(folded.repeats?.map((r) => r.cpuRatios?.sdk)).toEqual([2, 2, 1.8]);
    // The case's own figures, not those of the case the median run showed.
    expect(folded.blockwire).toBe(30);
    expect(folded.references).toEqual({ sdk: 3 });
    expect(folded.spread?.cpuRatios).toEqual({ sdk: [1.8, 2] });
  });

  it('gives the figures alone as their range when no run showed that case', () => {
    // Each run's least favourable: a (1), b (1), a (5, a tie with b, the first); folded: c at 2.
    const folded = medianRun([three(1, 5, 2), three(5, 1, 2), three(5, 5, 6)]);
    expect(folded.headlineCase).toBe('c');
    expect(folded.spread?.blockwire).toEqual([30, 30]);
    expect(folded.spread?.references).toEqual({ sdk: [3, 3] });
  });
});
