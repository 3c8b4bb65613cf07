import { describe, expect, it } from 'vitest';
import { type Contender, measure } from './harness.ts';
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

describe('measure', () => {
  it('runs Blockwire right beside each reference, first in one round and second in the next', async () => {
    const { log, contenders } = logged(['blockwire', 'a', 'b', 'c']);
    await measure(contenders, 'blockwire', { rounds: 4, warmup: 1 });
    const runs = log.map((entry) => entry.name);
    expect(runs).toHaveLength(5 * 3 * 2);
    const pairs = Array.from({ length: runs.length / 2 }, (_, i) => runs.slice(2 * i, 2 * i + 2));
    for (const pair of pairs) expect(pair).toContain('blockwire');
    for (const reference of ['a', 'b', 'c']) {
      const order = pairs
        .filter((pair) => pair.includes(reference))
        .map((pair) => (pair[0] === 'blockwire' ? 'first' : 'second'));
      expect(order).toHaveLength(5);
      // Alternates from round to round.
      for (let i = 1; i < order.length; i++) expect(order[i]).not.toBe(order[i - 1]);
    }
    // The pairs' order rotates: no reference always comes first.
    const firstPairs = [0, 1, 2].map((round) => pairs[round * 3]!.find((name) => name !== 'blockwire'));
    expect(new Set(firstPairs).size).toBe(3);
  });

  it('keeps the figures of each pair together and throws the warm-up away', async () => {
    const { log, contenders } = logged(['blockwire', 'reference']);
    const measured = await measure(contenders, 'blockwire', { rounds: 3, warmup: 2 });
    expect(log.filter((entry) => entry.warmup)).toHaveLength(4);
    // Run numbers 5 to 10 are the measured ones: (5, 6), (7, 8), (9, 10), Blockwire's first in round 3.
    expect(measured.pairs.reference).toMatchObject({ blockwire: [5, 8, 9], reference: [6, 7, 10] });
    // Each run's CPU time is kept beside its figure, one per run.
    expect(measured.pairs.reference!.blockwireCpu).toHaveLength(3);
    expect(measured.pairs.reference!.referenceCpu).toHaveLength(3);
    expect(measured.perRound.blockwire).toEqual([5, 8, 9]);
    const summary = summarize(measured, 'blockwire', false);
    // reference ÷ Blockwire per pair: 6/5, 7/8, 10/9; the median is 10/9.
    expect(summary.ratios.reference).toBeCloseTo(10 / 9);
    expect(summary.rounds).toBe(3);
  });

  it("takes a run's CPU time from the contender when it ran in a process of its own", async () => {
    const contenders: Contender[] = [
      { name: 'blockwire', round: async () => ({ figure: 10, cpuMs: 3 }) },
      { name: 'reference', round: async () => ({ figure: 20, cpuMs: 7 }) },
    ];
    const measured = await measure(contenders, 'blockwire', { rounds: 2, warmup: 0, cpuMs: () => 1_000 });
    expect(measured.pairs.reference).toEqual({
      blockwire: [10, 10],
      reference: [20, 20],
      blockwireCpu: [3, 3],
      referenceCpu: [7, 7],
    });
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
