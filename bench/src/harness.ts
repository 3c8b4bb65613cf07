/**
 * Rounds, pairing and statistics. Blockwire runs between every two runs of the other contenders,
 * and each reference's ratio is taken against the mean of the Blockwire runs either side of its
 * run, so a load from elsewhere on the machine that grows or fades over those three runs weighs
 * on both sides alike. Every run follows another contender's: a run that follows its own is
 * cheaper. Measured with `BENCH_DEBUG=1 pnpm bench --only rest-overhead` (it prints every run)
 * on the layout before this one, where Blockwire ran twice in a row once a round: those of its
 * runs took a median 14 % less client CPU than its runs after another client's, and 16 % and
 * 17 % in two more runs whose client processes also collected their garbage after each run, then
 * also ran without V8's memory reducer.
 * The order of the references rotates from round to round. A ratio is reported with the lowest
 * and highest pair (`summarize` in report.ts says what it is of its pairs).
 */

export interface Contender {
  name: string;
  /**
   * Runs once and returns its figure (e.g. requests per second, or milliseconds), or, for a
   * client that runs in a process of its own, the figure with the CPU time that process spent.
   */
  round(run: RunInfo): Promise<number | Run>;
}

/** A run measured where it ran: its figure and the CPU time (ms, user + system) it took there. */
export interface Run {
  figure: number;
  cpuMs: number;
}

export const figuresOf = (runs: readonly Run[]) => runs.map((run) => run.figure);
export const cpuOf = (runs: readonly Run[]) => runs.map((run) => run.cpuMs);

export interface RunInfo {
  /** A warm-up run: its figure is thrown away (a contender keeping its own records skips it too). */
  warmup: boolean;
}

export interface Measured {
  /**
   * Each contender's measured runs (figure and CPU time), in order: Blockwire runs after every
   * other run, so most often.
   */
  runs: Record<string, Run[]>;
  /**
   * Per reference, its run in each round (the same as in `runs`) and Blockwire's beside it: the
   * mean of the Blockwire runs either side, figure and CPU time alike. CPU time is the client's
   * cost, steady on a busy machine where wall time swings (servers in another process are not in it).
   */
  pairs: Record<string, { blockwire: Run[]; reference: Run[] }>;
}

export interface MeasureOptions {
  /** Rounds measured; a round runs each reference once, each followed by Blockwire. */
  rounds: number;
  /**
   * Rounds run first and thrown away: JIT, connection pools, caches. A warm-up round runs each
   * reference once, then Blockwire once; the last one runs Blockwire after each reference.
   */
  warmup: number;
  /**
   * Warm-up rounds for the references named here, more or fewer than `warmup`, as long as each
   * takes to settle; Blockwire warms up for the longest. A reference warm already sits the
   * remaining warm-up rounds out.
   */
  warmupOf?: Readonly<Record<string, number>>;
  /**
   * References measured in only one of every k measured rounds of a stretch (its first, so every
   * process still gives a pair), as `{ name: k }`: for one whose run costs many of Blockwire's and
   * whose ratio is steady and far from any target, where more pairs only add time.
   */
  measureEvery?: Readonly<Record<string, number>>;
  /**
   * Called before each run: a garbage collection, so one's garbage is not the next one's cost.
   * Not for clients in processes of their own: each collects its own before its runs
   * (`client-process.ts`), and one here would only add this process's sweeping to their core.
   */
  settle?: () => Promise<void> | void;
  /**
   * CPU time (ms) the client has used so far, when the client is not (only) this process, e.g.
   * n8n running the workflow; this process's own by default.
   */
  cpuMs?: () => number;
  /**
   * Spreads the rounds over this many lifetimes of the contenders' processes: before each
   * stretch after the first, `restart` gives every contender a fresh process, which then warms up
   * again (`warmup` rounds). One process's collector can settle into a costly regime for its
   * whole life (bench/README.md: about one fresh REST `undici-request` process in five), so a
   * figure taken from one process per contender is one draw of that; the median over several is
   * the usual case.
   */
  spreadOver?: { processes: number; restart: () => Promise<void> };
  /** Names the measurement in BENCH_DEBUG's lines, where several are interleaved. */
  label?: string;
}

/**
 * E.g. `Each fresh process warms up for 4 rounds (viem 8, moralis 2), each reference once a
 * round and Blockwire once after them (in the last round after each).`
 */
export function warmupNote({ warmup, warmupOf = {} }: Pick<MeasureOptions, 'warmup' | 'warmupOf'>) {
  const own = Object.entries(warmupOf).map(([name, rounds]) => `${name} ${rounds}`);
  const rounds = `${warmup} round${warmup === 1 ? '' : 's'}`;
  const exceptions = own.length > 0 ? ` (${own.join(', ')})` : '';
  const order =
    warmup > 0 || own.length > 0
      ? ', each reference once a round and Blockwire once after them (in the last round after each)'
      : '';
  return `Each fresh process warms up for ${rounds}${exceptions}${order}.`;
}

/** E.g. ` http-request-node is measured in one round of every 3 in each fresh process.` */
export function measureEveryNote({ measureEvery = {} }: Pick<MeasureOptions, 'measureEvery'>): string {
  return Object.entries(measureEvery)
    .map(([name, every]) => ` ${name} is measured in one round of every ${every} in each fresh process.`)
    .join('');
}

/** How many of `rounds` each of `stretches` measures: as even as can be, the earlier ones longer. */
export function roundsPerStretch(rounds: number, stretches: number): number[] {
  const count = Math.max(1, Math.min(stretches, rounds));
  return Array.from({ length: count }, (_, i) => Math.floor(rounds / count) + (i < rounds % count ? 1 : 0));
}

export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs the contenders with `blockwire` (the contender of that name, compared with every other)
 * between every two runs of the others, as the top of this file says why: Blockwire, a
 * reference, Blockwire, the next reference, Blockwire…
 */
export async function measure(
  contenders: readonly Contender[],
  blockwire: string,
  options: MeasureOptions,
): Promise<Measured> {
  const [measured] = await measureInterleaved([{ contenders, blockwire, options }]);
  return measured!;
}

/** What `measure` is given, as one of the measurements `measureInterleaved` runs. */
export interface MeasurePlan {
  contenders: readonly Contender[];
  blockwire: string;
  options: MeasureOptions;
}

/**
 * Runs several measurements as `measure` runs each, but their stretches (`spreadOver`) taken in
 * turn, each measurement's spread evenly over the whole time: a stretch of the machine running
 * slower (at 7fbd85b, one took half as much CPU again for every contender for a minute) then
 * weighs a little on every measurement, where in a row it could fall on all of one's processes
 * and move its ratios by a sixth. Every stretch but the first starts with its measurement's
 * `restart`, so none runs in processes another measurement warmed up.
 */
export async function measureInterleaved(plans: readonly MeasurePlan[]): Promise<Measured[]> {
  const measurements = plans.map(startMeasurement);
  const steps = measurements.flatMap((measurement, index) =>
    Array.from({ length: measurement.stretches }, (_, stretch) => ({
      index,
      stretch,
      at: (stretch + 0.5) / measurement.stretches,
    })),
  );
  steps.sort((a, b) => a.at - b.at || a.index - b.index);
  for (const [i, { index, stretch }] of steps.entries()) {
    if (i > 0) await plans[index]!.options.spreadOver?.restart();
    await measurements[index]!.runStretch(stretch);
  }
  return measurements.map((measurement) => measurement.measured);
}

interface Measurement {
  /** How many stretches the rounds are spread over (`spreadOver`), run in order, each once. */
  stretches: number;
  /** Runs one stretch's warm-up and measured rounds in the processes there are now. */
  runStretch(stretch: number): Promise<void>;
  /** What the stretches run so far measured. */
  measured: Measured;
}

function startMeasurement({ contenders, blockwire, options }: MeasurePlan): Measurement {
  const paired = contenders.find((contender) => contender.name === blockwire);
  if (!paired) throw new Error(`no contender ${blockwire} to pair the others with`);
  const references = contenders.filter((contender) => contender !== paired);
  checkPerReferenceOptions(options, references);
  const runs: Record<string, Run[]> = {};
  const pairs: Measured['pairs'] = {};
  for (const contender of contenders) runs[contender.name] = [];
  for (const reference of references) pairs[reference.name] = { blockwire: [], reference: [] };
  const runOnce = runner(options);
  const measuredRounds = roundsPerStretch(options.rounds, options.spreadOver?.processes ?? 1);
  const warmupRoundsOf = (reference: Contender) => options.warmupOf?.[reference.name] ?? options.warmup;
  const warmupRounds = Math.max(options.warmup, ...references.map(warmupRoundsOf));
  /**
   * A warm-up round: each reference still warming up once, then Blockwire once; pairing it with
   * every reference there would only add runs nobody measures. The last warm-up round is laid out
   * as a measured one, Blockwire after each reference: with only one run a round, Blockwire's
   * first measured runs cost 1.10× its settled CPU (at 4e62f03, REST), where the references had
   * settled, and REST's CPU ratio at concurrency 32 fell from 1.07 to 0.98; with the last round
   * so (`--only rest-overhead --repeat 3`), it gave 0.95, 1.00 and 0.99.
   */
  const warmUpRound = async (inStretch: number, round: number) => {
    const last = inStretch === warmupRounds - 1;
    let after: Run | undefined;
    for (const reference of rotate(references, round)) {
      if (inStretch >= warmupRoundsOf(reference)) continue;
      await runOnce(reference, round, true);
      if (last) after = await runOnce(paired, round, true);
    }
    return after ?? runOnce(paired, round, true);
  };
  // Rounds are numbered across stretches, so the references' order goes on rotating.
  let round = 0;
  const runStretch = async (stretch: number) => {
    let before = await runOnce(paired, round, warmupRounds > 0);
    if (warmupRounds === 0) runs[blockwire]!.push(before);
    for (let inStretch = 0; inStretch < warmupRounds + measuredRounds[stretch]!; inStretch++, round++) {
      if (inStretch < warmupRounds) {
        before = await warmUpRound(inStretch, round);
        continue;
      }
      const measuredRound = inStretch - warmupRounds;
      for (const reference of rotate(references, round)) {
        if (measuredRound % (options.measureEvery?.[reference.name] ?? 1) !== 0) continue;
        const measured = await runOnce(reference, round, false);
        const after = await runOnce(paired, round, false);
        const around: Run = {
          figure: (before.figure + after.figure) / 2,
          cpuMs: (before.cpuMs + after.cpuMs) / 2,
        };
        before = after;
        runs[reference.name]!.push(measured);
        runs[blockwire]!.push(after);
        pairs[reference.name]!.blockwire.push(around);
        pairs[reference.name]!.reference.push(measured);
      }
    }
  };
  return { stretches: measuredRounds.length, runStretch, measured: { runs, pairs } };
}

/** A name in `warmupOf` or `measureEvery` that is no reference would change nothing: a slip, said at once. */
function checkPerReferenceOptions(options: MeasureOptions, references: readonly Contender[]): void {
  const names = references.map((reference) => reference.name);
  for (const [option, named] of [
    ['warmupOf', options.warmupOf],
    ['measureEvery', options.measureEvery],
  ] as const) {
    for (const name of Object.keys(named ?? {})) {
      if (!names.includes(name)) {
        throw new Error(`${option} names ${name}, which is no reference here (${names.join(', ')})`);
      }
    }
  }
  for (const [name, every] of Object.entries(options.measureEvery ?? {})) {
    if (!Number.isInteger(every) || every < 1) {
      throw new Error(`measureEvery.${name} must be an integer >= 1, got ${every}`);
    }
  }
}

/** Runs one contender once, after `settle`, and gives its figure and the CPU time it took. */
function runner(options: MeasureOptions) {
  const cpuMs = options.cpuMs ?? ownCpuMs;
  return async (contender: Contender, round: number, warmup: boolean): Promise<Run> => {
    await options.settle?.();
    const cpuBefore = cpuMs();
    const result = await contender.round({ warmup });
    const run = typeof result === 'number' ? { figure: result, cpuMs: cpuMs() - cpuBefore } : result;
    if (!Number.isFinite(run.figure) || run.figure <= 0) {
      throw new Error(`${contender.name} gave no figure in round ${round + 1}: ${run.figure}`);
    }
    if (process.env.BENCH_DEBUG)
      process.stderr.write(
        `RUN ${options.label ? `[${options.label}] ` : ''}${round} ${contender.name} ${run.figure.toFixed(0)} cpu ${run.cpuMs.toFixed(1)}\n`,
      );
    return run;
  };
}

export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The mean of ratios taken on a log scale: a pair at 2 and one at 0.5 average to 1. */
export function geometricMean(values: readonly number[]): number {
  if (values.length === 0) throw new Error('geometric mean of nothing');
  if (values.some((value) => !(value > 0)))
    throw new Error(`geometric mean of a value ≤ 0: ${values.join(', ')}`);
  return Math.exp(values.reduce((total, value) => total + Math.log(value), 0) / values.length);
}

export type Range = [low: number, high: number];

export function range(values: readonly number[]): Range {
  return [Math.min(...values), Math.max(...values)];
}

/**
 * Blockwire against one reference, pair by pair, oriented so that > 1 means Blockwire is
 * better: for a figure where higher is better (req/s) blockwire ÷ reference, else reference ÷ blockwire.
 */
export function pairedRatios(
  blockwire: readonly number[],
  reference: readonly number[],
  higherIsBetter: boolean,
): number[] {
  return blockwire.map((value, i) => (higherIsBetter ? value / reference[i]! : reference[i]! / value));
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export function since(start: number): number {
  return performance.now() - start;
}

/** Runs `work` for every index in [0, total) with at most `concurrency` in flight. */
export async function withConcurrency(
  total: number,
  concurrency: number,
  work: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

/**
 * A garbage collection when Node was started with --expose-gc (else nothing), then a wait until
 * this process is quiet again. V8 goes on sweeping and freeing on helper threads after `gc()`
 * returns: on a heap of 140–155 MB, 20–55 ms of CPU in the next 50 ms. Without the wait,
 * that lands in the next run's CPU time (it counts every thread of the process) and, on the
 * client's pinned core, in its wall time: a cost of the bench's collection, not of the run.
 */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  gc();
  await untilQuiet();
}

/** Waits, a few ms at a time, until this process uses under a tenth of a CPU (at most `maxMs`). */
export async function untilQuiet({ windowMs = 5, maxMs = 250 } = {}): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline) {
    const start = performance.now();
    const before = process.cpuUsage();
    await new Promise<void>((resolve) => setTimeout(resolve, windowMs));
    const { user, system } = process.cpuUsage(before);
    if ((user + system) / 1000 <= (performance.now() - start) * 0.1) return;
  }
}
