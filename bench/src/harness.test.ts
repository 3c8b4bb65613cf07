import { describe, expect, it } from 'vitest';
import {
  type Contender,
  figuresOf,
  type Measured,
  measure,
  measureEveryNote,
  measureInterleaved,
  roundsPerStretch,
  warmupNote,
} from './harness.ts';
import { summarize } from './report.ts';

/** Contenders that log when they ran and give back their run number as the figure. */
function logged(names: string[]) {
  const log: { name: string; warmup: boolean }[] = [];
  const contenders: Contender[] = names.map((name) => ({
    name,
    round: async ({ warmup }) => {
      log.push({ name, warmup });
      return log.length;
    },
  }));
  return { log, contenders };
}

/** Each contender's measured figures, in order. */
const runFiguresOf = (measured: Measured) =>
  Object.fromEntries(Object.entries(measured.runs).map(([name, runs]) => [name, figuresOf(runs)]));

/** The figures of the pairs with the contender `reference`: its runs and Blockwire's beside them. */
const pairedFiguresOf = (measured: Measured) => {
  const pair = measured.pairs.reference!;
  return { blockwire: figuresOf(pair.blockwire), reference: figuresOf(pair.reference) };
};

describe('measure', () => {
  it('runs Blockwire between every two measured runs of the others, never twice in a row', async () => {
    const { log, contenders } = logged(['blockwire', 'a', 'b', 'c']);
    await measure(contenders, 'blockwire', { rounds: 4, warmup: 1 });
    const runs = log.map((entry) => entry.name);
    // One Blockwire run to start; the only warm-up round, being the last, is laid out as a measured one.
    expect(runs.slice(0, 7)).toEqual(['blockwire', 'a', 'blockwire', 'b', 'blockwire', 'c', 'blockwire']);
    expect(log.slice(0, 7).every((entry) => entry.warmup)).toBe(true);
    // Then each measured round: every reference once, each followed by Blockwire.
    const measured = runs.slice(7);
    expect(log.slice(7).some((entry) => entry.warmup)).toBe(false);
    expect(measured).toHaveLength(4 * 3 * 2);
    expect(measured.filter((_, i) => i % 2 === 1).every((name) => name === 'blockwire')).toBe(true);
    expect(measured.filter((_, i) => i % 2 === 0)).not.toContain('blockwire');
    // The references' order rotates: no reference always comes first.
    const firstOfRound = [0, 1, 2].map((round) => measured[round * 6]);
    expect(new Set(firstOfRound)).toEqual(new Set(['a', 'b', 'c']));
  });

  it('warms Blockwire up once a round, and after each reference in the last warm-up round', async () => {
    const { log, contenders } = logged(['blockwire', 'a', 'b', 'c']);
    await measure(contenders, 'blockwire', { rounds: 1, warmup: 3 });
    const warmingUp = log.filter((entry) => entry.warmup).map((entry) => entry.name);
    // Blockwire to start, once after the first two rounds' references, after each in the third.
    expect(warmingUp.filter((name) => name === 'blockwire')).toHaveLength(1 + 2 + 3);
    for (const name of ['a', 'b', 'c']) expect(warmingUp.filter((n) => n === name)).toHaveLength(3);
    const lastRound = warmingUp.slice(-6);
    expect(lastRound.filter((_, i) => i % 2 === 1)).toEqual(['blockwire', 'blockwire', 'blockwire']);
    expect(new Set(lastRound.filter((_, i) => i % 2 === 0))).toEqual(new Set(['a', 'b', 'c']));
  });

  it('pairs each reference run with the mean of the Blockwire runs either side, the warm-up thrown away', async () => {
    const { log, contenders } = logged(['blockwire', 'reference']);
    // A clock that moves one millisecond a reading: this process's own CPU time over a run that
    // does nothing may read 0, and a CPU ratio of 0 has no geometric mean.
    let cpuClock = 0;
    const cpuMs = () => ++cpuClock;
    const measured = await measure(contenders, 'blockwire', { rounds: 3, warmup: 2, cpuMs });
    // Runs 1 (the first Blockwire run) to 5 are the warm-up: 1, then (2, 3) and (4, 5).
    expect(log.filter((entry) => entry.warmup)).toHaveLength(5);
    // Measured: reference 6 between Blockwire 5 and 7, 8 between 7 and 9, 10 between 9 and 11.
    expect(pairedFiguresOf(measured)).toEqual({ blockwire: [6, 8, 10], reference: [6, 8, 10] });
    expect(runFiguresOf(measured)).toEqual({ blockwire: [7, 9, 11], reference: [6, 8, 10] });
    const summary = summarize(measured, 'blockwire', false);
    expect(summary.ratios.reference).toBeCloseTo(1);
    expect(summary.rounds).toBe(3);
  });

  it('takes a measured first Blockwire run as a run of the first round when there is no warm-up', async () => {
    const { contenders } = logged(['blockwire', 'reference']);
    const measured = await measure(contenders, 'blockwire', { rounds: 2, warmup: 0 });
    expect(runFiguresOf(measured)).toEqual({ blockwire: [1, 3, 5], reference: [2, 4] });
    expect(pairedFiguresOf(measured)).toEqual({ blockwire: [2, 4], reference: [2, 4] });
  });

  it("takes a run's CPU time from the contender when it ran in a process of its own", async () => {
    let blockwireRuns = 0;
    const contenders: Contender[] = [
      { name: 'blockwire', round: async () => ({ figure: 10, cpuMs: ++blockwireRuns % 2 === 1 ? 2 : 4 }) },
      { name: 'reference', round: async () => ({ figure: 20, cpuMs: 7 }) },
    ];
    const measured = await measure(contenders, 'blockwire', { rounds: 2, warmup: 0, cpuMs: () => 1_000 });
    expect(measured.pairs.reference).toEqual({
      blockwire: [
        { figure: 10, cpuMs: 3 },
        { figure: 10, cpuMs: 3 },
      ],
      reference: [
        { figure: 20, cpuMs: 7 },
        { figure: 20, cpuMs: 7 },
      ],
    });
    // Each run's own CPU time too, Blockwire's unaveraged: 2, 4, 2 for its three runs.
    expect(measured.runs.blockwire!.map((run) => run.cpuMs)).toEqual([2, 4, 2]);
    expect(measured.runs.reference!.map((run) => run.cpuMs)).toEqual([7, 7]);
  });

  it('spreads the rounds over fresh processes: each stretch restarts, warms up again, and pairs only its own runs', async () => {
    const { log, contenders } = logged(['blockwire', 'reference']);
    const restarts: number[] = [];
    const measured = await measure(contenders, 'blockwire', {
      rounds: 3,
      warmup: 1,
      spreadOver: {
        processes: 2,
        restart: async () => {
          restarts.push(log.length);
        },
      },
    });
    // Stretch 1 (2 rounds): warm-up 1-3, then 4-7. Restart. Stretch 2 (1 round): warm-up 8-10, then 11-12.
    expect(restarts).toEqual([7]);
    expect(log.map((entry) => entry.warmup)).toEqual([
      ...[true, true, true, false, false, false, false],
      ...[true, true, true, false, false],
    ]);
    // Reference 11 pairs with Blockwire 10 and 12 of its own stretch, never with 7 of the one before.
    expect(pairedFiguresOf(measured)).toEqual({ blockwire: [4, 6, 11], reference: [4, 6, 11] });
    expect(runFiguresOf(measured)).toEqual({ blockwire: [5, 7, 12], reference: [4, 6, 11] });
  });

  it('gives the references named in warmupOf more warm-up rounds, the others sitting them out', async () => {
    const { log, contenders } = logged(['blockwire', 'slow', 'quick']);
    const measured = await measure(contenders, 'blockwire', {
      rounds: 2,
      warmup: 1,
      warmupOf: { slow: 3 },
    });
    const warmingUp = log.filter((entry) => entry.warmup).map((entry) => entry.name);
    // Blockwire to start; the first round both references, the next two only the slow one, each
    // round then Blockwire.
    expect(warmingUp).toEqual([
      'blockwire',
      ...['slow', 'quick', 'blockwire'],
      ...['slow', 'blockwire'],
      ...['slow', 'blockwire'],
    ]);
    // Then both measured alike, two rounds each.
    expect(log.slice(warmingUp.length).every((entry) => !entry.warmup)).toBe(true);
    expect(measured.pairs.slow!.reference).toHaveLength(2);
    expect(measured.pairs.quick!.reference).toHaveLength(2);
    expect(measured.runs.blockwire).toHaveLength(4);
  });

  it('gives a reference named in warmupOf fewer warm-up rounds, Blockwire still warming up for warmup', async () => {
    const { log, contenders } = logged(['blockwire', 'costly', 'cheap']);
    await measure(contenders, 'blockwire', { rounds: 1, warmup: 3, warmupOf: { costly: 1 } });
    const warmingUp = log.filter((entry) => entry.warmup).map((entry) => entry.name);
    expect(warmingUp).toEqual([
      'blockwire',
      ...['costly', 'cheap', 'blockwire'],
      ...['cheap', 'blockwire'],
      ...['cheap', 'blockwire'],
    ]);
  });

  it('refuses a warmupOf that names no reference, saying which names there are', async () => {
    const { log, contenders } = logged(['blockwire', 'viem', 'ethers']);
    const options = { rounds: 1, warmup: 1, warmupOf: { vime: 8 } };
    await expect(measure(contenders, 'blockwire', options)).rejects.toThrow(
      'warmupOf names vime, which is no reference here (viem, ethers)',
    );
    // Blockwire is paired with every reference and warms up for the longest: it is no reference either.
    await expect(
      measure(contenders, 'blockwire', { ...options, warmupOf: { blockwire: 8 } }),
    ).rejects.toThrow('warmupOf names blockwire');
    expect(log).toEqual([]);
  });

  it('measures a reference named in measureEvery in the first of every k rounds of each stretch', async () => {
    const { log, contenders } = logged(['blockwire', 'costly', 'cheap']);
    let restarts = 0;
    const measured = await measure(contenders, 'blockwire', {
      rounds: 6,
      warmup: 0,
      measureEvery: { costly: 3 },
      spreadOver: { processes: 2, restart: async () => void restarts++ },
    });
    expect(restarts).toBe(1);
    expect(log.map((entry) => entry.name)).toEqual([
      ...['blockwire', 'costly', 'blockwire', 'cheap', 'blockwire'],
      ...['cheap', 'blockwire', 'cheap', 'blockwire'],
      ...['blockwire', 'cheap', 'blockwire', 'costly', 'blockwire'],
      ...['cheap', 'blockwire', 'cheap', 'blockwire'],
    ]);
    expect(measured.pairs.costly!.reference).toHaveLength(2);
    expect(measured.pairs.cheap!.reference).toHaveLength(6);
  });

  it('refuses a measureEvery that names no reference or is no whole number of rounds', async () => {
    const { log, contenders } = logged(['blockwire', 'viem']);
    await expect(
      measure(contenders, 'blockwire', { rounds: 1, warmup: 0, measureEvery: { vime: 2 } }),
    ).rejects.toThrow('measureEvery names vime, which is no reference here (viem)');
    await expect(
      measure(contenders, 'blockwire', { rounds: 1, warmup: 0, measureEvery: { viem: 0 } }),
    ).rejects.toThrow('measureEvery.viem must be an integer >= 1, got 0');
    expect(log).toEqual([]);
  });

  it('splits the rounds among the stretches as evenly as it can, never into empty ones', () => {
    expect(roundsPerStretch(19, 5)).toEqual([4, 4, 4, 4, 3]);
    expect(roundsPerStretch(50, 5)).toEqual([10, 10, 10, 10, 10]);
    expect(roundsPerStretch(2, 5)).toEqual([1, 1]);
    expect(roundsPerStretch(3, 1)).toEqual([3]);
    expect(roundsPerStretch(3, 0)).toEqual([3]);
  });

  it('refuses a figure that is not a positive number', async () => {
    const contenders: Contender[] = [
      { name: 'blockwire', round: async () => 1 },
      { name: 'broken', round: async () => Number.NaN },
    ];
    await expect(measure(contenders, 'blockwire', { rounds: 1, warmup: 0 })).rejects.toThrow(
      'broken gave no figure in round 1',
    );
  });
});

describe('measureInterleaved', () => {
  /** Two contenders of one measurement, logging its label for each run and each restart. */
  function plan(label: string, processes: number, log: string[]) {
    const contenders: Contender[] = ['blockwire', 'reference'].map((name) => ({
      name,
      round: async () => {
        log.push(label);
        return log.length;
      },
    }));
    const restart = async () => {
      log.push(`restart ${label}`);
    };
    return {
      contenders,
      blockwire: 'blockwire',
      options: { rounds: processes, warmup: 0, spreadOver: { processes, restart } },
    };
  }

  it("takes the measurements' stretches in turn, each spread over the whole time, restarting before all but the first", async () => {
    const log: string[] = [];
    await measureInterleaved([plan('a', 2, log), plan('b', 4, log)]);
    const stretches = log.filter((entry, i) => entry !== log[i - 1]);
    // b's four stretches at 1/8, 3/8, 5/8 and 7/8 of the time, a's two at 1/4 and 3/4; a starts
    // afresh even before its first, for b's ran before it.
    expect(stretches).toEqual([
      ...['b', 'restart a', 'a', 'restart b', 'b', 'restart b', 'b'],
      ...['restart a', 'a', 'restart b', 'b'],
    ]);
  });

  it('measures each as measure would: its own pairs, whatever ran between its stretches', async () => {
    const log: string[] = [];
    const [a, b] = await measureInterleaved([plan('a', 2, log), plan('b', 2, log)]);
    // Log positions: a 1-3, restart b 4, b 5-7, restart a 8, a 9-11, restart b 12, b 13-15.
    expect(runFiguresOf(a!)).toEqual({ blockwire: [1, 3, 9, 11], reference: [2, 10] });
    expect(pairedFiguresOf(a!)).toEqual({ blockwire: [2, 10], reference: [2, 10] });
    expect(runFiguresOf(b!)).toEqual({ blockwire: [5, 7, 13, 15], reference: [6, 14] });
  });

  it('checks every measurement before running any', async () => {
    const log: string[] = [];
    const slip = plan('b', 1, log);
    await expect(
      measureInterleaved([
        plan('a', 1, log),
        { ...slip, options: { ...slip.options, warmupOf: { nobody: 2 } } },
      ]),
    ).rejects.toThrow('warmupOf names nobody');
    expect(log).toEqual([]);
  });
});

describe('summarize', () => {
  /** Pairs with a reference whose CPU a run is `ratios` times Blockwire's 10 ms, all at the same figure. */
  const pairedAt = (ratios: number[]): Measured => {
    const blockwire = ratios.map(() => ({ figure: 1, cpuMs: 10 }));
    const reference = ratios.map((ratio) => ({ figure: 1, cpuMs: 10 * ratio }));
    return { runs: { blockwire, reference }, pairs: { reference: { blockwire, reference } } };
  };

  it("takes a CPU ratio as the geometric mean of its pairs, moving with a mode's share where the median jumps", () => {
    // Three cheap pairs and two costly ones (a collection of the whole heap in the reference's runs):
    // the median is the cheap mode's, as if the costly runs were not there.
    const summary = summarize(pairedAt([1, 1, 1, 4, 4]), 'blockwire', false);
    expect(summary.cpuRatios.reference).toBeCloseTo(4 ** (2 / 5));
    // One costly pair more and the median leaps to the other mode; the mean moves a share's worth.
    const oneMore = summarize(pairedAt([1, 1, 4, 4, 4]), 'blockwire', false);
    expect(oneMore.cpuRatios.reference).toBeCloseTo(4 ** (3 / 5));
    expect(oneMore.spread.cpuRatios.reference).toEqual([1, 4]);
  });

  it('weighs a pair at twice and one at half alike', () => {
    expect(summarize(pairedAt([2, 0.5]), 'blockwire', false).cpuRatios.reference).toBeCloseTo(1);
  });

  it("keeps the median of the pairs for a figure's ratio", () => {
    const measured = pairedAt([1, 1, 1, 4, 4]);
    measured.pairs.reference!.reference.forEach((run, i) => {
      run.figure = [1, 1, 1, 4, 4][i]!;
    });
    expect(summarize(measured, 'blockwire', false).ratios.reference).toBe(1);
  });
});

describe('warmupNote', () => {
  it('says how many rounds a fresh process warms up for, and who warms up longer', () => {
    expect(warmupNote({ warmup: 1 })).toBe(
      'Each fresh process warms up for 1 round, each reference once a round and Blockwire once after them (in the last round after each).',
    );
    expect(warmupNote({ warmup: 4, warmupOf: { viem: 8, moralis: 2 } })).toBe(
      'Each fresh process warms up for 4 rounds (viem 8, moralis 2), each reference once a round and Blockwire once after them (in the last round after each).',
    );
  });
});

describe('measureEveryNote', () => {
  it('names each reference measured in fewer rounds, and says nothing when none is', () => {
    expect(measureEveryNote({})).toBe('');
    expect(measureEveryNote({ measureEvery: { 'http-request-node': 3 } })).toBe(
      ' http-request-node is measured in one round of every 3 in each fresh process.',
    );
  });
});
