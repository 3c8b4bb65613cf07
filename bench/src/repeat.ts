/** `--repeat`: several runs of one comparison folded into one record that keeps them all. */
import { median } from './harness.ts';
import type { Comparison } from './report.ts';

/**
 * The run whose first ratio is the median of the runs' (the lower middle one for an even
 * count), with every run's ratios and CPU ratios kept in `repeats` and each ratio replaced by
 * its median over the runs.
 */
export function medianRun(runs: readonly Comparison[]): Comparison {
  if (runs.length === 0) throw new Error('no run to take the median of');
  const first = Object.keys(runs[0]!.ratios)[0];
  const sorted = [...runs].sort((a, b) => (a.ratios[first!] ?? 0) - (b.ratios[first!] ?? 0));
  const middle = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const medians = (pick: (run: Comparison) => Record<string, number> | undefined) => {
    const names = Object.keys(pick(runs[0]!) ?? {});
    if (names.length === 0) return undefined;
    return Object.fromEntries(
      names.map((name) => [name, median(runs.map((run) => pick(run)?.[name] ?? Number.NaN))]),
    );
  };
  const cpuRatios = medians((run) => run.cpuRatios);
  return {
    ...middle,
    ratios: medians((run) => run.ratios)!,
    ...(cpuRatios ? { cpuRatios } : {}),
    repeats: runs.map((run) => ({
      ratios: run.ratios,
      ...(run.cpuRatios ? { cpuRatios: run.cpuRatios } : {}),
    })),
  };
}
