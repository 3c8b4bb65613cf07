/**
 * Figures, the bounds they are held to, and the report: a table on the terminal and
 * `reliability/results/latest.json` (plus `latest.md`, the same table for the README to link).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCENARIO_IDS = [
  'rest-faults',
  'rpc-faults',
  'webhook-chaos',
  'webhook-cluster',
  'webhook-cluster-idle',
  'webhook-cluster-restart',
  'bad-input',
  'secrets',
  'load',
  'n8n-queue',
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export type Figure = number | string | boolean | Record<string, number>;

/** One figure held to a bound: `bound` says it in words, `ok` whether the figure meets it. */
export interface Check {
  figure: string;
  bound: string;
  ok: boolean;
}

export interface ScenarioResult {
  id: ScenarioId;
  passed: boolean;
  figures: Record<string, Figure>;
  checks: Check[];
  durationMs: number;
  /** The commit and command it ran with (a results file keeps the scenarios of earlier runs). */
  commit?: string;
  command?: string;
}

/** How big a run is: `quick` is what `npm test` runs; `full` the counts; `soak` longer still. */
export type Scale = 'quick' | 'full' | 'soak';

/** Builds a scenario's checks as its figures come in. */
export class Checks {
  readonly list: Check[] = [];
  equal(figure: string, actual: unknown, expected: unknown): void {
    this.list.push({ figure, bound: `= ${String(expected)}`, ok: Object.is(actual, expected) });
  }
  atMost(figure: string, actual: number, limit: number, unit = ''): void {
    this.list.push({ figure, bound: `<= ${limit}${unit}`, ok: actual <= limit });
  }
  atLeast(figure: string, actual: number, limit: number, unit = ''): void {
    this.list.push({ figure, bound: `>= ${limit}${unit}`, ok: actual >= limit });
  }
  that(figure: string, bound: string, ok: boolean): void {
    this.list.push({ figure, bound, ok });
  }
}

export function result(
  id: ScenarioId,
  started: number,
  figures: Record<string, Figure>,
  checks: Checks,
): ScenarioResult {
  return {
    id,
    passed: checks.list.length > 0 && checks.list.every((check) => check.ok),
    figures,
    checks: checks.list,
    durationMs: Math.round(performance.now() - started),
  };
}

/** The checks that failed, as lines (empty when the scenario passed): what a test asserts on. */
export function failures(outcome: ScenarioResult): string[] {
  const failed = outcome.checks
    .filter((check) => !check.ok)
    .map((check) => `${check.figure} ${JSON.stringify(outcome.figures[check.figure])}, bound ${check.bound}`);
  if (outcome.checks.length === 0) failed.push('no figure was checked');
  return failed;
}

const formatFigure = (value: Figure | undefined): string => {
  if (value === undefined) return '';
  if (typeof value === 'object') {
    const parts = Object.entries(value).map(([key, count]) => `${key} ${count}`);
    return parts.length ? parts.join(', ') : '-';
  }
  return String(value);
};

/** The figures as a plain-text table: scenario, figure, value, bound, ok. */
export function table(results: ScenarioResult[], markdown = false): string {
  const rows: string[][] = [];
  for (const outcome of results) {
    const bounded = new Map(outcome.checks.map((check) => [check.figure, check]));
    for (const [name, value] of Object.entries(outcome.figures)) {
      const check = bounded.get(name);
      rows.push([
        outcome.id,
        name,
        formatFigure(value),
        check?.bound ?? '',
        check ? (check.ok ? 'ok' : 'FAIL') : '',
      ]);
    }
    rows.push([
      outcome.id,
      'passed',
      String(outcome.passed),
      '',
      `${(outcome.durationMs / 1000).toFixed(1)} s`,
    ]);
  }
  const header = ['scenario', 'figure', 'value', 'bound', 'ok'];
  if (markdown) {
    const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
    return [
      `| ${header.join(' | ')} |`,
      `|${header.map(() => '---').join('|')}|`,
      ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
    ].join('\n');
  }
  const widths = header.map((_, i) =>
    Math.min(60, Math.max(...[header, ...rows].map((row) => row[i]!.length))),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS_DIR = join(repositoryRoot, 'reliability', 'results');

function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Writes `<name>.json` and `<name>.md` under reliability/results; returns the JSON's path. With
 * `keepOthers` (a run of some scenarios only, `--only`), the scenarios of the file's earlier runs
 * that this one did not run stay, each with the commit it ran at.
 */
export function writeResults(
  name: string,
  ran: ScenarioResult[],
  run: { scale: Scale; command: string; durationMs: number; keepOthers?: boolean },
): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const commit = currentCommit();
  const jsonPath = join(RESULTS_DIR, `${name}.json`);
  const kept = run.keepOthers
    ? earlierResults(jsonPath, run.scale).filter(
        (earlier) => !ran.some((outcome) => outcome.id === earlier.id),
      )
    : [];
  const all = [...ran.map((outcome) => ({ ...outcome, commit, command: run.command })), ...kept];
  const results = SCENARIO_IDS.flatMap((id) => all.filter((outcome) => outcome.id === id));
  const report = {
    commit,
    command: run.command,
    scale: run.scale,
    node: process.version,
    durationMs: run.durationMs,
    scenarios: results,
  };
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  const passed = results.filter((outcome) => outcome.passed).length;
  writeFileSync(
    join(RESULTS_DIR, `${name}.md`),
    [
      `# Reliability figures (${name})`,
      '',
      `Produced by \`${run.command}\` at commit \`${commit.slice(0, 12)}\` on Node ${process.version}, ` +
        `${run.scale} counts, in ${(run.durationMs / 1000).toFixed(0)} s: ${passed} of ${results.length} scenarios passed.`,
      '',
      table(results, true),
      '',
    ].join('\n'),
  );
  return jsonPath;
}

/** The scenarios of a results file run at `scale`, each with its commit and command; none when there is no such file. */
function earlierResults(jsonPath: string, scale: Scale): ScenarioResult[] {
  if (!existsSync(jsonPath)) return [];
  const earlier = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
    commit: string;
    command: string;
    scale: Scale;
    scenarios: ScenarioResult[];
  };
  if (earlier.scale !== scale) return [];
  return earlier.scenarios.map((outcome) => ({
    commit: earlier.commit,
    command: earlier.command,
    ...outcome,
  }));
}
