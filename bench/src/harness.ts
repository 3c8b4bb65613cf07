/**
 * Rounds, interleaving and statistics. Every contender of a comparison runs once per round, in an
 * order that rotates from round to round, so a burst of load from elsewhere on the machine falls
 * on all of them alike; each ratio is taken within one round (paired), then the median of the
 * rounds is reported with the lowest and highest round.
 */

export interface Contender {
  name: string;
  /** Runs one round and returns its figure (e.g. requests per second, or milliseconds). */
  round(): Promise<number>;
}

export interface Measured {
  /** Each contender's figure per round, in round order. */
  perRound: Record<string, number[]>;
}

export interface MeasureOptions {
  rounds: number;
  /** Rounds run first and thrown away: JIT, connection pools, caches. */
  warmup: number;
  /** Called between two contenders: a garbage collection, so one's garbage is not the next one's cost. */
  settle?: () => Promise<void> | void;
}

export async function measure(contenders: readonly Contender[], options: MeasureOptions): Promise<Measured> {
  const perRound: Record<string, number[]> = {};
  for (const contender of contenders) perRound[contender.name] = [];
  const total = options.warmup + options.rounds;
  for (let round = 0; round < total; round++) {
    const order = rotate(contenders, round);
    for (const contender of order) {
      await options.settle?.();
      const figure = await contender.round();
      if (!Number.isFinite(figure) || figure <= 0) {
        throw new Error(`${contender.name} gave no figure in round ${round + 1}: ${figure}`);
      }
      if (round >= options.warmup) perRound[contender.name]!.push(figure);
    }
  }
  return { perRound };
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export type Range = [low: number, high: number];

export function range(values: readonly number[]): Range {
  return [Math.min(...values), Math.max(...values)];
}

/**
 * Blockwire against one reference, round by round, oriented so that > 1 means Blockwire is
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

/** A garbage collection when Node was started with --expose-gc, else nothing. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
