/**
 * The results: `latest.json` in the format issue 14 fixes, and `latest.md` for people. Also the
 * check of that format, which the smoke test runs on a quick run's file.
 */
import {
  cpuOf,
  figuresOf,
  geometricMean,
  type Measured,
  median,
  pairedRatios,
  type Range,
  range,
} from './harness.ts';

export interface Target {
  /** The target in words, e.g. "≥ 0.90 of raw undici". */
  text: string;
  met: boolean;
  /**
   * The ratio the target is on, when it is one: with `--repeat` it is judged again on the median
   * of the runs. A target without a rule (a count, a size) is met when every run met it.
   */
  rule?: TargetRule;
}

export type TargetRule = RatioRule | OverheadRule;

export interface RatioRule {
  figure: 'ratios' | 'cpuRatios';
  reference: string;
  /** A case's ratio (by its name) instead of the comparison's own. */
  case?: string;
  /** Met at this value or above (strictly above with `strict`). */
  atLeast: number;
  strict?: boolean;
}

/**
 * Blockwire's client CPU per call less a reference's, in µs, the median over the pairs
 * (`cpuOverheads`): met at `atMostMicros` or below.
 */
export interface OverheadRule {
  figure: 'cpuOverheads';
  reference: string;
  atMostMicros: number;
}

type Judged = Partial<Pick<Comparison, 'ratios' | 'cpuRatios' | 'cases' | 'cpuOverheads'>>;

/** A target on one measured figure, judged now and again on the medians of a `--repeat`. */
export function figureTarget(text: string, rule: TargetRule, comparison: Judged): Target {
  return { text, met: ruleMet(rule, comparison), rule };
}

export function ruleMet(rule: TargetRule, comparison: Judged): boolean {
  if (rule.figure === 'cpuOverheads') {
    const overhead = comparison.cpuOverheads?.[rule.reference] ?? Number.NaN;
    return Number.isFinite(overhead) && overhead <= rule.atMostMicros;
  }
  const figures =
    rule.case === undefined
      ? comparison[rule.figure]
      : comparison.cases?.find((k) => k.name === rule.case)?.[rule.figure];
  const value = figures?.[rule.reference];
  if (value === undefined || !Number.isFinite(value)) return false;
  return rule.strict ? value > rule.atLeast : value >= rule.atLeast;
}

/** A sub-measurement shown in latest.md (e.g. one delivery size, or the Node bundle). */
export interface Case {
  name: string;
  /** When it is not the comparison's (e.g. HTTP calls in a comparison of times). */
  unit?: string;
  blockwire: number;
  references: Record<string, number>;
  ratios: Record<string, number>;
  ratioRanges?: Record<string, Range>;
  /** Client CPU time per reference ÷ Blockwire's, paired per round, when the case measured it. */
  cpuRatios?: Record<string, number>;
  cpuRatioRanges?: Record<string, Range>;
  /** With --repeat: every run's CPU ratios of this case, in order (`cpuRatios` is their median). */
  repeatCpuRatios?: Record<string, number>[];
  /** With --repeat: per reference, how far this case's furthest run lies from the median (a fraction). */
  repeatDeviation?: Record<string, number>;
}

export interface Comparison {
  id: string;
  title: string;
  metric: string;
  unit: string;
  higherIsBetter: boolean;
  blockwire: number;
  references: Record<string, number>;
  /** Oriented so that > 1 means Blockwire is better. */
  ratios: Record<string, number>;
  /**
   * Client CPU time per reference ÷ Blockwire's, paired per round (> 1: Blockwire spends less):
   * the primary figure where the work is the client's. Absent where no CPU is measured (weight).
   */
  cpuRatios?: Record<string, number>;
  /**
   * Each contender's client CPU time per call, µs, the median of its own runs, when calls are
   * counted. Runs move together from one run of the bench to the next: compare within a run.
   */
  cpuPerCall?: { blockwire: number; references: Record<string, number> };
  /**
   * Per reference, Blockwire's client CPU per call less the reference's, µs, paired as the CPU
   * ratios are (the reference's run against the mean of the Blockwire runs either side), the
   * median of the pairs.
   */
  cpuOverheads?: Record<string, number>;
  /** With --repeat: every run's figures, in order (the figures above are their medians). */
  repeats?: {
    ratios: Record<string, number>;
    cpuRatios?: Record<string, number>;
    cpuPerCall?: Comparison['cpuPerCall'];
    cpuOverheads?: Record<string, number>;
  }[];
  /**
   * With --repeat: per reference, how far the furthest run's CPU ratio lies from the runs' median,
   * as a fraction of it (0.04: within ±4 %).
   */
  repeatDeviation?: Record<string, number>;
  /** Lowest and highest round of each figure and ratio (absent for a figure measured once). */
  spread?: {
    blockwire: Range;
    references: Record<string, Range>;
    ratios: Record<string, Range>;
    cpuRatios?: Record<string, Range>;
  };
  rounds: number;
  targets: Target[];
  cases?: Case[];
  /** The case whose figures the headline shows, where the headline is one of `cases`. */
  headlineCase?: string;
  /**
   * Where the headline shows the least favourable case: the case with the lowest client CPU ratio
   * to this reference (webhook intake: the official SDK). With --repeat it is chosen again among
   * the folded cases, so the headline is one case's fold over every run, never a mix of runs' picks.
   */
  leastFavourableTo?: string;
  notes?: string[];
  /** Seconds the comparison took, every run of a `--repeat` included. */
  durationSeconds?: number;
}

export interface Results {
  commit: string;
  node: string;
  /** Cores, CPU model (`cpuModel`), memory, platform: what the figures hold on. */
  machine: string;
  /** The CPU's model name, with family, model and stepping where Linux lists them. */
  cpuModel?: string;
  quick: boolean;
  /** How many times every comparison ran (`--repeat`). */
  repeat?: number;
  startedAt: string;
  durationSeconds: number;
  /** Load average of the machine at the start and the end of the run (1 minute). */
  load: { start: number; end: number };
  /** The bench's scheduling niceness (below 0: a higher priority than the machine's other jobs). */
  niceness: number;
  /** The CPUs the client side and the servers were pinned to; absent when they shared every CPU. */
  pinning?: { client: string; servers: string };
  /** CPU cores of the machine: a load average above it means other jobs competed for them. */
  cores: number;
  comparisons: Comparison[];
  /** Comparisons that could not run, with why. */
  failures?: { id: string; error: string }[];
  /** Comparisons a quick run left out, with why (a full run leaves none out). */
  skipped?: Skipped[];
}

export interface Skipped {
  id: string;
  reason: string;
}

/**
 * Figures and paired ratios of a measured comparison, with their ranges. `rounds` counts the pairs
 * of each reference. Figures and wall-time ratios are medians (of the runs; of the pairs), which a
 * run slowed by a load from elsewhere on the machine moves little. A CPU ratio is the geometric
 * mean of its pairs: a run's CPU is bimodal (a collection of the whole heap falls in it or not; a
 * fresh process's collector settles into a cheap or a costly regime for its life), and the median
 * of such pairs jumps from one mode to the other as their share crosses a half, where a mean moves
 * with the share (bench/README.md, "A CPU ratio is the geometric mean of its pairs").
 */
export function summarize(measured: Measured, blockwireName: string, higherIsBetter: boolean) {
  const blockwireRuns = figuresOf(measured.runs[blockwireName]!);
  const references: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const cpuRatios: Record<string, number> = {};
  const spread = {
    blockwire: range(blockwireRuns),
    references: {} as Record<string, Range>,
    ratios: {} as Record<string, Range>,
    cpuRatios: {} as Record<string, Range>,
  };
  let rounds = 0;
  for (const [name, pair] of Object.entries(measured.pairs)) {
    const referenceFigures = figuresOf(pair.reference);
    references[name] = median(referenceFigures);
    spread.references[name] = range(referenceFigures);
    const paired = pairedRatios(figuresOf(pair.blockwire), referenceFigures, higherIsBetter);
    ratios[name] = median(paired);
    spread.ratios[name] = range(paired);
    const pairedCpu = pairedRatios(cpuOf(pair.blockwire), cpuOf(pair.reference), false);
    cpuRatios[name] = geometricMean(pairedCpu);
    spread.cpuRatios[name] = range(pairedCpu);
    rounds = paired.length;
  }
  return { blockwire: median(blockwireRuns), references, ratios, cpuRatios, spread, rounds };
}

/** A case of a comparison: its name and what `summarize` made of its rounds. */
export function caseOf(name: string, summary: ReturnType<typeof summarize>): Case {
  const { blockwire, references, ratios, cpuRatios, spread } = summary;
  return {
    name,
    blockwire,
    references,
    ratios,
    ratioRanges: spread.ratios,
    cpuRatios,
    cpuRatioRanges: spread.cpuRatios,
  };
}

/** Each contender's median client CPU per call (µs) over its own runs of a measured comparison. */
export function cpuPerCall(
  measured: Measured,
  blockwireName: string,
  calls: number,
): NonNullable<Comparison['cpuPerCall']> {
  const perCall = (name: string) => (median(cpuOf(measured.runs[name]!)) * 1000) / calls;
  const references: Record<string, number> = {};
  for (const name of Object.keys(measured.pairs)) references[name] = perCall(name);
  return { blockwire: perCall(blockwireName), references };
}

/**
 * Per reference, the median over its pairs of Blockwire's client CPU per call less the
 * reference's (µs): the overhead the CPU ratio shows, in µs. Not the difference of the two
 * medians, which may come from runs far apart.
 */
export function cpuOverheads(measured: Measured, calls: number): Record<string, number> {
  const overheads: Record<string, number> = {};
  for (const [name, pair] of Object.entries(measured.pairs)) {
    const differences = pair.blockwire.map(
      (run, i) => ((run.cpuMs - pair.reference[i]!.cpuMs) * 1000) / calls,
    );
    overheads[name] = median(differences);
  }
  return overheads;
}

export const COMPARISON_IDS = [
  'rest-overhead',
  'rest-memory',
  'solana-scale',
  'json-rpc',
  'webhook-intake',
  'keccak',
  'weight',
  'cold-start',
  'n8n-items',
] as const;

/** The references each comparison must have, as issue 14 names them. */
const REQUIRED_REFERENCES: Record<(typeof COMPARISON_IDS)[number], string[]> = {
  'rest-overhead': ['undici-dispatch', 'undici-request', 'fetch', 'moralis'],
  'rest-memory': ['undici-dispatch'],
  'solana-scale': ['undici-concurrent', 'sequential'],
  'json-rpc': ['viem', 'ethers', 'undici-dispatch', 'undici-request'],
  'webhook-intake': ['moralis', 'hand-rolled-native'],
  // node:crypto's only where the runtime has keccak-256.
  keccak: ['hash-wasm', 'noble'],
  weight: ['moralis-modular', 'moralis'],
  'cold-start': ['moralis-modular', 'fetch'],
  'n8n-items': ['http-request-node', 'http-request-aggregate'],
};

/** What is wrong with a results file, or [] when it has the format and a number for every figure. */
export function formatProblems(results: unknown): string[] {
  const problems: string[] = [];
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const positive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;
  if (!isRecord(results)) return ['the file is not a JSON object'];
  for (const key of ['commit', 'node', 'machine']) {
    if (typeof results[key] !== 'string' || results[key] === '')
      problems.push(`${key} is not a non-empty string`);
  }
  if (!Array.isArray(results.comparisons)) return [...problems, 'comparisons is not a list'];
  const byId = new Map<string, Record<string, unknown>>();
  for (const comparison of results.comparisons) {
    if (isRecord(comparison) && typeof comparison.id === 'string') byId.set(comparison.id, comparison);
    else problems.push('a comparison without an id');
  }
  const skipped = new Set(
    results.quick === true && Array.isArray(results.skipped)
      ? results.skipped.flatMap((entry) =>
          isRecord(entry) && typeof entry.reason === 'string' ? [entry.id] : [],
        )
      : [],
  );
  for (const id of COMPARISON_IDS) {
    const comparison = byId.get(id);
    if (!comparison) {
      if (!skipped.has(id)) problems.push(`comparison ${id} is missing`);
      continue;
    }
    for (const key of ['title', 'metric', 'unit']) {
      if (typeof comparison[key] !== 'string' || comparison[key] === '')
        problems.push(`${id}.${key} is not a string`);
    }
    if (typeof comparison.higherIsBetter !== 'boolean')
      problems.push(`${id}.higherIsBetter is not a boolean`);
    if (!positive(comparison.blockwire)) problems.push(`${id}.blockwire is not a positive number`);
    for (const map of ['references', 'ratios'] as const) {
      const values = comparison[map];
      if (!isRecord(values)) {
        problems.push(`${id}.${map} is not an object`);
        continue;
      }
      for (const name of new Set([...REQUIRED_REFERENCES[id], ...Object.keys(values)])) {
        if (!(name in values)) problems.push(`${id}.${map}.${name} is missing`);
        else if (!positive(values[name])) problems.push(`${id}.${map}.${name} is not a positive number`);
      }
    }
    // Client CPU is the primary figure wherever the client does work (a bundle's size has none).
    if (id !== 'weight') {
      const cpu = comparison.cpuRatios;
      if (!isRecord(cpu)) problems.push(`${id}.cpuRatios is not an object`);
      else if (isRecord(comparison.ratios)) {
        for (const name of Object.keys(comparison.ratios)) {
          if (!positive(cpu[name])) problems.push(`${id}.cpuRatios.${name} is not a positive number`);
        }
      }
    }
    if (isRecord(comparison.references) && isRecord(comparison.ratios)) {
      const refs = Object.keys(comparison.references).sort().join();
      const ratios = Object.keys(comparison.ratios).sort().join();
      if (refs !== ratios)
        problems.push(`${id}: references (${refs}) and ratios (${ratios}) name different things`);
    }
  }
  return problems;
}

const figure = (value: number) =>
  Number.isInteger(value)
    ? String(value)
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value >= 1
          ? value.toFixed(2)
          : value.toFixed(3);
const ratio = (value: number) => value.toFixed(2);
const rangeText = (r: Range | undefined, format: (n: number) => string) =>
  r ? ` (${format(r[0])}–${format(r[1])})` : '';

/** Said when other jobs kept every core busy: then runs of the same work vary by tens of percent. */
function busyWarning(results: Results): string[] {
  const load = Math.max(results.load.start, results.load.end);
  if (load <= results.cores) return [];
  return [
    '',
    `**The machine was busy** (load average up to ${load.toFixed(1)} on ${results.cores} cores): other jobs competed for the CPU, so the same work varied a lot from run to run (see the ranges), and a ratio close to its target can come out on the other side of it in another run.`,
  ];
}

/** Per name of the first record, `name a, b, c`: its value in each record, in order. */
function runByRun(
  records: readonly (Record<string, number> | undefined)[],
  show: (value: number) => string = ratio,
): { name: string; text: string }[] {
  return Object.keys(records[0] ?? {}).map((name) => ({
    name,
    text: `${name} ${records.map((record) => show(record?.[name] ?? Number.NaN)).join(', ')}`,
  }));
}

/** How far the furthest run lies from the median, e.g. `±4.3 %`. */
export const deviationText = (fraction: number | undefined) =>
  `±${((fraction ?? Number.NaN) * 100).toFixed(1)} %`;

/** With --repeat: each case's CPU ratios run by run (every case that has CPU ratios of its own). */
function caseRepeatLines(c: Comparison): string[] {
  const cases = (c.cases ?? []).filter((k) => k.repeatCpuRatios && k.repeatCpuRatios.length > 1);
  if (cases.length === 0) return [];
  const ofCase = (k: Case) =>
    runByRun(k.repeatCpuRatios!)
      .map(({ name, text }) => `${text} (${deviationText(k.repeatDeviation?.[name])})`)
      .join(', ');
  return [
    `- Each case’s client CPU ratios, run by run: ${cases.map((k) => `${k.name}: ${ofCase(k)}`).join('; ')}.`,
  ];
}

/** With --repeat: every run's ratios, so the medians above can be checked against them. */
function repeatLines(c: Comparison): string[] {
  if (!c.repeats || c.repeats.length < 2) return [];
  const runs = c.repeats;
  const series = (
    pick: (run: (typeof runs)[number]) => Record<string, number> | undefined,
    show: (value: number) => string = ratio,
  ) =>
    runByRun(runs.map(pick), show)
      .map(({ text }) => text)
      .join('; ');
  const micros = (value: number) => value.toFixed(1);
  const deviation = Object.entries(c.repeatDeviation ?? {})
    .map(([name, value]) => `${name} ${deviationText(value)}`)
    .join(', ');
  return [
    `- The ${runs.length} runs (\`--repeat ${runs.length}\`), in order: ratios ${series((run) => run.ratios)}.`,
    ...(runs[0]!.cpuRatios
      ? [
          `- Their client CPU ratios: ${series((run) => run.cpuRatios)}; furthest run from the median: ${deviation}.`,
        ]
      : []),
    ...caseRepeatLines(c),
    ...(runs[0]!.cpuPerCall
      ? [
          `- Their client CPU per call, µs (the median of each contender's runs): ${series(
            (run) => run.cpuPerCall && { blockwire: run.cpuPerCall.blockwire, ...run.cpuPerCall.references },
            micros,
          )}.`,
        ]
      : []),
    ...(runs[0]!.cpuOverheads
      ? [
          `- Blockwire's client CPU per call less each reference's, µs (the median of the pairs): ${series(
            (run) => run.cpuOverheads,
            micros,
          )}.`,
        ]
      : []),
  ];
}

export function toMarkdown(results: Results, command: string): string {
  const lines: string[] = [
    '# Benchmark results',
    '',
    `Written by \`${command}\`${results.quick ? ' (a quick run: few rounds, small sizes — not for quoting)' : ''}.`,
    '',
    `- commit: \`${results.commit}\``,
    `- Node: ${results.node}`,
    `- machine: ${results.machine}`,
    `- started: ${results.startedAt}, took ${results.durationSeconds.toFixed(0)} s; load average ${results.load.start.toFixed(1)} at the start, ${results.load.end.toFixed(1)} at the end; niceness ${results.niceness}`,
    `- CPUs: ${results.pinning ? `client on ${results.pinning.client}, servers on ${results.pinning.servers} (taskset)` : 'client and servers share every CPU'}`,
    ...busyWarning(results),
    '',
    'Every figure is the median of its runs, with the lowest and highest run in brackets. Blockwire runs',
    'between every two runs of the others, and each ratio pairs a run of that reference with the mean of the',
    'Blockwire runs either side of it; the median of the pairs is shown: **a ratio above 1 means Blockwire is',
    'better** (faster, or smaller).',
    '',
    '| comparison | Blockwire | references | ratios (> 1: Blockwire better) | client CPU ratios (reference CPU ÷ Blockwire CPU) | target | met |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of results.comparisons) {
    const refs = Object.entries(c.references)
      .map(([name, value]) => `${name} ${figure(value)}${rangeText(c.spread?.references[name], figure)}`)
      .join('<br>');
    const ratios = Object.entries(c.ratios)
      .map(([name, value]) => `vs ${name} **${ratio(value)}**${rangeText(c.spread?.ratios[name], ratio)}`)
      .join('<br>');
    const cpuRatios = Object.entries(c.cpuRatios ?? {})
      .map(
        ([name, value]) => `vs ${name} **${ratio(value)}**${rangeText(c.spread?.cpuRatios?.[name], ratio)}`,
      )
      .join('<br>');
    const targets = c.targets.map((t) => t.text).join('<br>');
    const met = c.targets.map((t) => (t.met ? 'yes' : '**no**')).join('<br>');
    lines.push(
      `| **${c.title}** (\`${c.id}\`)${c.headlineCase ? `: ${c.headlineCase}` : ''}<br>${c.metric}, ${c.unit} | ${figure(c.blockwire)}${rangeText(c.spread?.blockwire, figure)} | ${refs} | ${ratios} | ${cpuRatios || '–'} | ${targets} | ${met} |`,
    );
  }
  for (const c of results.comparisons) {
    if (!c.cases?.length && !c.notes?.length && !c.repeats && c.durationSeconds === undefined) continue;
    lines.push('', `## ${c.title} (\`${c.id}\`)`, '');
    if (c.durationSeconds !== undefined)
      lines.push(
        `${c.rounds} round${c.rounds === 1 ? '' : 's'} a run; took ${c.durationSeconds.toFixed(0)} s in all.`,
        '',
      );
    if (c.cases?.length) {
      const withCpu = c.cases.some((k) => k.cpuRatios);
      lines.push(
        `| case | Blockwire | references | ratios |${withCpu ? ' client CPU ratios |' : ''}`,
        `|---|---|---|---|${withCpu ? '---|' : ''}`,
      );
      for (const k of c.cases) {
        const unit = k.unit ?? c.unit;
        const refs = Object.entries(k.references)
          .map(([name, value]) => `${name} ${figure(value)} ${unit}`)
          .join('<br>');
        const ratios = Object.entries(k.ratios)
          .map(([name, value]) => `vs ${name} **${ratio(value)}**${rangeText(k.ratioRanges?.[name], ratio)}`)
          .join('<br>');
        const cpuRatios = Object.entries(k.cpuRatios ?? {})
          .map(
            ([name, value]) => `vs ${name} **${ratio(value)}**${rangeText(k.cpuRatioRanges?.[name], ratio)}`,
          )
          .join('<br>');
        lines.push(
          `| ${k.name} | ${figure(k.blockwire)} ${unit} | ${refs} | ${ratios} |${withCpu ? ` ${cpuRatios || '–'} |` : ''}`,
        );
      }
      lines.push('');
    }
    for (const note of c.notes ?? []) lines.push(`- ${note}`);
    lines.push(...repeatLines(c));
  }
  if (results.skipped?.length) {
    lines.push('', '## Comparisons this quick run left out', '');
    for (const entry of results.skipped) lines.push(`- \`${entry.id}\`: ${entry.reason}`);
  }
  if (results.failures?.length) {
    lines.push('', '## Comparisons that failed', '');
    for (const failure of results.failures) {
      lines.push(`- \`${failure.id}\`: ${failure.error.split('\n')[0]}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
