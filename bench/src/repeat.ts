/** `--repeat`: several runs of one comparison folded into one record that keeps them all. */
import { median, type Range } from './harness.ts';
import { type Case, type Comparison, deviationText, ruleMet, type Target } from './report.ts';

/** How far each run's client CPU ratio may lie from the runs' median for the runs to agree. */
export const REPEAT_AGREEMENT = 0.1;

/**
 * The run whose first ratio is the median of the runs' (the lower middle one for an even
 * count), with every run's ratios, CPU ratios, CPU per call and overheads kept in `repeats`, each
 * ratio (the comparison's and its cases'), overhead and contender's CPU per call replaced by its
 * median over the runs, and the targets judged again: a target on a measured figure (a ratio, an
 * overhead in µs) on its median, any other (a count, a size, no 429) met only when every run met
 * it. With more than one run, each range spans the rounds of every run. With more than one run
 * and CPU ratios, one more target: each run's CPU ratios within ±`REPEAT_AGREEMENT` of their median.
 * A headline that shows one of the cases is that case's fold (see `showCase`): the least favourable
 * of the folded cases where the comparison shows that one (`leastFavourableTo`), else the median run's.
 */
export function medianRun(runs: readonly Comparison[]): Comparison {
  if (runs.length === 0) throw new Error('no run to take the median of');
  const first = Object.keys(runs[0]!.ratios)[0];
  const sorted = [...runs].sort((a, b) => (a.ratios[first!] ?? 0) - (b.ratios[first!] ?? 0));
  const middle = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const cpuRatios = medianOf(runs, (run) => run.cpuRatios);
  const cpuOverheads = medianOf(runs, (run) => run.cpuOverheads);
  const folded: Comparison = {
    ...middle,
    ratios: medianOf(runs, (run) => run.ratios)!,
    ...(cpuRatios ? { cpuRatios } : {}),
    ...(middle.cpuPerCall ? { cpuPerCall: medianCpuPerCall(runs) } : {}),
    ...(cpuOverheads ? { cpuOverheads } : {}),
    ...(middle.cases ? { cases: middle.cases.map((k) => medianCase(k, runs)) } : {}),
    repeats: runs.map((run) => ({
      ratios: run.ratios,
      ...(run.cpuRatios ? { cpuRatios: run.cpuRatios } : {}),
      ...(run.cpuPerCall ? { cpuPerCall: run.cpuPerCall } : {}),
      ...(run.cpuOverheads ? { cpuOverheads: run.cpuOverheads } : {}),
    })),
  };
  if (middle.spread) folded.spread = widestSpread(runs);
  const shownCase = headlineCaseOf(folded, middle);
  if (shownCase !== undefined) showCase(folded, shownCase, runs);
  folded.targets = middle.targets.map((target, i) => rejudge(target, i, folded, runs));
  if (runs.length > 1 && folded.cpuRatios) {
    folded.repeatDeviation = deviationOf(
      folded.repeats!.map((run) => run.cpuRatios),
      folded.cpuRatios,
    );
    folded.targets.push(agreementTarget(runs.length, folded));
  }
  return folded;
}

/** The case the folded headline shows: chosen again among the folded cases where the rule says how. */
function headlineCaseOf(folded: Comparison, middle: Comparison): string | undefined {
  const reference = middle.leastFavourableTo;
  if (reference === undefined) return middle.headlineCase;
  let lowest: Case | undefined;
  for (const k of folded.cases ?? []) {
    const value = k.cpuRatios?.[reference];
    if (value !== undefined && (lowest === undefined || value < lowest.cpuRatios![reference]!)) lowest = k;
  }
  return lowest?.name ?? middle.headlineCase;
}

/**
 * Makes the folded headline the named case's fold: its figures and medians, its ratios' ranges over
 * every run, each run's ratios of that case in `repeats`. A case keeps no range of its own figures,
 * only of its ratios: the figures' ranges are those of the runs that showed it, or the figures
 * alone when none did.
 */
function showCase(folded: Comparison, name: string, runs: readonly Comparison[]): void {
  const shown = folded.cases?.find((k) => k.name === name);
  const perRun = runs.map((run) => run.cases?.find((k) => k.name === name));
  if (!shown || perRun.some((k) => k === undefined)) return;
  folded.headlineCase = name;
  folded.blockwire = shown.blockwire;
  folded.references = shown.references;
  folded.ratios = shown.ratios;
  if (shown.cpuRatios) folded.cpuRatios = shown.cpuRatios;
  else delete folded.cpuRatios;
  folded.repeats = (perRun as Case[]).map((k) => ({
    ratios: k.ratios,
    ...(k.cpuRatios ? { cpuRatios: k.cpuRatios } : {}),
  }));
  const chose = runs.filter((run) => run.headlineCase === name && run.spread);
  const alone = (value: number): Range => [value, value];
  if (folded.spread) {
    folded.spread = {
      ...(chose.length > 0
        ? widestSpread(chose)
        : {
            blockwire: alone(shown.blockwire),
            references: foldEach(
              [shown],
              (k) => k.references,
              (v) => alone(v[0]!),
            )!,
          }),
      ratios: shown.ratioRanges ?? {},
      ...(shown.cpuRatioRanges ? { cpuRatios: shown.cpuRatioRanges } : {}),
    };
  }
}

/**
 * The runs agree when each CPU ratio of each run, the comparison's and every case's, lies within
 * ±`REPEAT_AGREEMENT` of its median: a case with a target of its own is judged on its median too.
 * The text names every ratio outside that, furthest first, or the furthest one when none is.
 */
function agreementTarget(count: number, folded: Comparison): Target {
  const cases = (folded.cases ?? []).filter((k) => k.repeatDeviation);
  const deviations = [
    ...placed(folded.repeatDeviation, ''),
    ...cases.flatMap((k) => placed(k.repeatDeviation, `${k.name}, `)),
  ].sort((a, b) => b.deviation - a.deviation);
  const outside = deviations.filter((d) => d.deviation > REPEAT_AGREEMENT);
  const named = (outside.length > 0 ? outside : deviations.slice(0, 1))
    .map((d) => `${deviationText(d.deviation)}: ${d.where}`)
    .join('; ');
  return {
    text: `the ${count} runs’ client CPU ratios${cases.length > 0 ? ', every case’s too,' : ''} within ±${REPEAT_AGREEMENT * 100} % of their median (${outside.length > 0 ? 'outside it' : 'furthest'}: ${named})`,
    met: outside.length === 0,
  };
}

/** Each reference's deviation, named by `place` and the reference; a run without it lies infinitely far. */
function placed(deviations: Record<string, number> | undefined, place: string) {
  return Object.entries(deviations ?? {}).map(([name, value]) => ({
    deviation: Number.isNaN(value) ? Number.POSITIVE_INFINITY : value,
    where: `${place}${name}`,
  }));
}

/** Per name of the first item's record, the median of that figure over every item. */
function medianOf<T>(
  items: readonly T[],
  pick: (item: T) => Record<string, number> | undefined,
): Record<string, number> | undefined {
  return foldEach(items, pick, (values) => median(values.map((value) => value ?? Number.NaN)));
}

/** Per name of the first item's record, the range spanning that range in every item. */
function widestOf<T>(
  items: readonly T[],
  pick: (item: T) => Record<string, Range> | undefined,
): Record<string, Range> | undefined {
  return foldEach(items, pick, widest);
}

/** Per name of the first item's record, `fold` of that name's value in every item. */
function foldEach<T, V, R>(
  items: readonly T[],
  pick: (item: T) => Record<string, V> | undefined,
  fold: (values: (V | undefined)[]) => R,
): Record<string, R> | undefined {
  const names = Object.keys(pick(items[0]!) ?? {});
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, fold(items.map((item) => pick(item)?.[name]))]));
}

/** Each contender's client CPU per call, its median over the runs. */
function medianCpuPerCall(runs: readonly Comparison[]): NonNullable<Comparison['cpuPerCall']> {
  return {
    blockwire: median(runs.map((run) => run.cpuPerCall?.blockwire ?? Number.NaN)),
    references: medianOf(runs, (run) => run.cpuPerCall?.references) ?? {},
  };
}

function medianCase(k: Case, runs: readonly Comparison[]): Case {
  const found = runs.map((run) => run.cases?.find((other) => other.name === k.name));
  if (found.some((other) => other === undefined)) return k;
  const same = found as Case[];
  const cpuRatios = medianOf(same, (c) => c.cpuRatios);
  const ratioRanges = widestOf(same, (c) => c.ratioRanges);
  const cpuRatioRanges = widestOf(same, (c) => c.cpuRatioRanges);
  const repeated = same.length > 1 && cpuRatios !== undefined;
  return {
    ...k,
    ratios: medianOf(same, (c) => c.ratios) ?? {},
    ...(ratioRanges ? { ratioRanges } : {}),
    ...(cpuRatios ? { cpuRatios } : {}),
    ...(cpuRatioRanges ? { cpuRatioRanges } : {}),
    ...(repeated
      ? {
          repeatCpuRatios: same.map((c) => ({ ...c.cpuRatios })),
          repeatDeviation: deviationOf(
            same.map((c) => c.cpuRatios),
            cpuRatios,
          ),
        }
      : {}),
  };
}

function widest(ranges: (Range | undefined)[]): Range {
  return [
    Math.min(...ranges.map((r) => r?.[0] ?? Number.NaN)),
    Math.max(...ranges.map((r) => r?.[1] ?? Number.NaN)),
  ];
}

function rejudge(target: Target, index: number, folded: Comparison, runs: readonly Comparison[]): Target {
  if (target.rule) return { ...target, met: ruleMet(target.rule, folded) };
  return { ...target, met: runs.every((run) => run.targets[index]?.met === true) };
}

/** Per name, how far the furthest run's value lies from the median, as a fraction of it. */
function deviationOf(
  runs: readonly (Record<string, number> | undefined)[],
  medians: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(medians).map(([name, middle]) => [
      name,
      Math.max(...runs.map((run) => Math.abs((run?.[name] ?? Number.NaN) / middle - 1))),
    ]),
  );
}

/** Each figure's lowest and highest round over all the runs. */
function widestSpread(runs: readonly Comparison[]): NonNullable<Comparison['spread']> {
  const spreads = runs.flatMap((run) => (run.spread ? [run.spread] : []));
  return {
    blockwire: widest(spreads.map((s) => s.blockwire)),
    references: widestOf(spreads, (s) => s.references) ?? {},
    ratios: widestOf(spreads, (s) => s.ratios) ?? {},
    ...(spreads[0]!.cpuRatios ? { cpuRatios: widestOf(spreads, (s) => s.cpuRatios) ?? {} } : {}),
  };
}
