/**
 * `pnpm test:reliability` (and `pnpm soak`): runs the scenarios, prints the table of their figures
 * and writes reliability/results/latest.json and latest.md (soak.json and soak.md for a soak).
 *
 *   node reliability/src/cli.ts [--scale quick|full|soak] [--only id,id]
 *
 * The default scale is `full`: the issue's counts. `npm test` runs the `quick` counts.
 * Exits 1 when a scenario fails a bound.
 */
import { relative } from 'node:path';
import {
  SCENARIO_IDS,
  type Scale,
  type ScenarioId,
  type ScenarioResult,
  table,
  writeResults,
} from './report.ts';
import { SCENARIOS } from './scenarios.ts';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const scale = (option('scale') ?? 'full') as Scale;
if (!['quick', 'full', 'soak'].includes(scale)) {
  process.stderr.write(`--scale must be quick, full or soak, not ${scale}\n`);
  process.exit(2);
}
const only = (option('only')?.split(',') ?? [...SCENARIO_IDS]) as ScenarioId[];
const unknown = only.filter((id) => !SCENARIO_IDS.includes(id));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown scenario(s) ${unknown.join(', ')}; the scenarios are ${SCENARIO_IDS.join(', ')}\n`,
  );
  process.exit(2);
}

const started = performance.now();
const results: ScenarioResult[] = [];
for (const id of only) {
  process.stderr.write(`[reliability] ${id} (${scale})…\n`);
  try {
    results.push(await SCENARIOS[id](scale));
  } catch (error) {
    process.stderr.write(`[reliability] ${id} could not run: ${(error as Error).stack}\n`);
    results.push({
      id,
      passed: false,
      figures: { error: String((error as Error).message) },
      checks: [],
      durationMs: 0,
    });
  }
}
const flags = [
  ...(scale === 'full' || scale === 'soak' ? [] : [`--scale ${scale}`]),
  ...(option('only') === undefined ? [] : [`--only ${only.join(',')}`]),
];
const command = `${scale === 'soak' ? 'pnpm soak' : 'pnpm test:reliability'}${flags.length > 0 ? ` -- ${flags.join(' ')}` : ''}`;
const written = writeResults(scale === 'soak' ? 'soak' : 'latest', results, {
  scale,
  command,
  durationMs: Math.round(performance.now() - started),
  keepOthers: option('only') !== undefined,
});
process.stdout.write(`${table(results)}\n\n`);
const failed = results.filter((outcome) => !outcome.passed).map((outcome) => outcome.id);
process.stdout.write(
  `${failed.length === 0 ? 'every scenario met its bounds' : `FAILED: ${failed.join(', ')}`}; figures in ${relative(process.cwd(), written)}\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
