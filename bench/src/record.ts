/**
 * Runs on record: a full run keeps a copy of its results in `results/runs/`, one file a day and
 * machine kind (a later full run of the same day and kind replaces it), so that a target is held
 * against runs on other days and machines, not only against the last one (issue 63). The bench
 * README lists them in a block this module writes; `figures.test.ts` holds the block to the files.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Results } from './report.ts';

export const RUNS_START = '<!-- bench runs: written by pnpm bench from bench/results/runs/ -->';
export const RUNS_END = '<!-- /bench runs -->';

export interface RunOnRecord {
  /** The file's name in `results/runs/`. */
  file: string;
  results: Results;
}

/** E.g. `2026-12-03-amd-epyc-family-25-model-17-stepping-1.json`: the day (UTC) and the CPU. */
export function recordName(results: Results): string {
  const day = results.startedAt.slice(0, 10);
  const cpu = (results.cpuModel ?? results.machine)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${day}-${cpu}.json`;
}

/** Writes the run's results into `<resultsDir>/runs/`, replacing that day's and kind's; its path. */
export function recordRun(resultsDir: string, results: Results): string {
  const dir = join(resultsDir, 'runs');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, recordName(results));
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}

/** Every run on record, oldest first. */
export function runsOnRecord(resultsDir: string): RunOnRecord[] {
  let files: string[];
  try {
    files = readdirSync(join(resultsDir, 'runs')).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .map((file) => ({
      file,
      results: JSON.parse(readFileSync(join(resultsDir, 'runs', file), 'utf8')) as Results,
    }))
    .sort((a, b) => a.results.startedAt.localeCompare(b.results.startedAt));
}

/** Each target of a run by `<comparison id>: <target text>`, with whether the run met it. */
function targetsOf(results: Results): Map<string, boolean> {
  return new Map(
    results.comparisons.flatMap((c) => c.targets.map((t) => [`\`${c.id}\`: ${t.text}`, t.met] as const)),
  );
}

/**
 * The block: a row a run (day, machine, commit, time, targets met), then the targets some run on
 * record missed, each with the runs that missed it.
 */
export function runsBlock(runs: readonly RunOnRecord[]): string {
  const rows = runs.map(({ file, results }) => {
    const targets = [...targetsOf(results).values()];
    const met = targets.filter(Boolean).length;
    const repeat = results.repeat ?? 1;
    return `| [${results.startedAt.slice(0, 10)}](results/runs/${file}) | ${results.cpuModel ?? results.machine} | ${results.node} | \`${results.commit}\` | ${repeat} | ${results.durationSeconds.toFixed(0)} s | ${results.load.start.toFixed(1)} → ${results.load.end.toFixed(1)} | ${met} of ${targets.length} |`;
  });
  const missed = new Map<string, string[]>();
  for (const { results } of runs) {
    for (const [target, met] of targetsOf(results)) {
      if (!met) missed.set(target, [...(missed.get(target) ?? []), results.startedAt.slice(0, 10)]);
    }
  }
  const days = new Set(runs.map(({ results }) => results.startedAt.slice(0, 10))).size;
  const kinds = new Set(runs.map(({ results }) => results.cpuModel ?? results.machine)).size;
  return [
    RUNS_START,
    '',
    `${runs.length} run${runs.length === 1 ? '' : 's'} on record, on ${days} day${days === 1 ? '' : 's'} and ${kinds} machine kind${kinds === 1 ? '' : 's'}:`,
    '',
    '| day | CPU | Node | commit | repeats | took | load average | targets met |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    missed.size === 0
      ? 'Every run on record met every target it had.'
      : `Targets a run on record missed (${missed.size}):`,
    ...(missed.size === 0
      ? []
      : ['', ...[...missed].map(([target, on]) => `- ${target} (${on.join(', ')})`)]),
    '',
    RUNS_END,
  ].join('\n');
}
