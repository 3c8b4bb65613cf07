/**
 * The figures the READMEs quote, generated from `results/latest.json`: one row per comparison and
 * baseline, so no figure appears without the baseline it was measured against. A full run
 * (`pnpm bench`, writing `results/`) rewrites the block in each README; `figures.test.ts` fails
 * when a README's block is not the one the committed results give.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Range } from './harness.ts';
import { RUNS_END, RUNS_START, runsBlock, runsOnRecord } from './record.ts';
import type { Comparison, Results } from './report.ts';

export const FIGURES_START = '<!-- bench figures: written by pnpm bench from bench/results/latest.json -->';
export const FIGURES_END = '<!-- /bench figures -->';

/** What each reference id is, in the words a README reader needs (the bench README has the details). */
const BASELINES: Record<string, string> = {
  'undici-dispatch': 'undici `dispatch` + `JSON.parse`',
  'undici-request': 'undici `Pool.request` + `JSON.parse`',
  fetch: 'global `fetch` + `json()`',
  moralis: 'official SDK, umbrella package',
  'moralis-modular': 'official modular packages (`@moralisweb3/evm-api` …)',
  'undici-concurrent': 'plain undici, same 8 in flight',
  sequential: '100 at a time, one after the other',
  viem: 'viem (batch size 20)',
  ethers: 'ethers 6 (batchMaxCount 20)',
  'hand-rolled-native': 'hand-rolled receiver (node:crypto keccak over the raw bytes, `JSON.parse`)',
  // The same receiver in results from before 'hand-rolled-native' (hash-wasm's keccak below 4 KB).
  'hand-rolled': 'hand-rolled receiver (keccak over the raw bytes, `JSON.parse`)',
  'node-crypto': 'node:crypto `keccak-256` (OpenSSL)',
  'hash-wasm': 'hash-wasm (WebAssembly)',
  noble: '@noble/hashes (pure JavaScript)',
  'http-request-node': 'n8n HTTP Request node, one call per item',
  'http-request-aggregate': 'n8n Loop Over Items → Aggregate → HTTP Request',
};

const two = (value: number) => value.toFixed(2);
const withRange = (value: number | undefined, range: Range | undefined) =>
  value === undefined ? '–' : `**${two(value)}**${range ? ` (${two(range[0])}–${two(range[1])})` : ''}`;

const baselineOf = (reference: string) => `${BASELINES[reference] ?? reference} (\`${reference}\`)`;

/**
 * The comparison's own ratios, then its other cases'. Where the headline is one of the cases (the
 * least favourable, say), its rows name that case instead of repeating it below.
 */
function rows(c: Comparison): string[] {
  const headline = JSON.stringify(c.ratios);
  const shown = c.cases?.find((k) => JSON.stringify(k.ratios) === headline);
  const label = `${c.title} (\`${c.id}\`)${shown ? `: ${shown.name}` : ''}`;
  const own = Object.keys(c.ratios).map(
    (reference) =>
      `| ${label} | ${baselineOf(reference)} | ${withRange(c.cpuRatios?.[reference], c.spread?.cpuRatios?.[reference])} | ${withRange(c.ratios[reference], c.spread?.ratios[reference])} |`,
  );
  const cases = (c.cases ?? [])
    .filter((k) => k !== shown)
    .flatMap((k) =>
      Object.keys(k.ratios).map(
        (reference) =>
          `| \`${c.id}\`: ${k.name} | ${baselineOf(reference)} | ${withRange(k.cpuRatios?.[reference], k.cpuRatioRanges?.[reference])} | ${withRange(k.ratios[reference], k.ratioRanges?.[reference])} |`,
      ),
    );
  return [...own, ...cases];
}

function targetLines(c: Comparison): string[] {
  return c.targets.map((t) => `- ${t.met ? 'met' : '**missed**'}: \`${c.id}\` — ${t.text}`);
}

/** The generated block, markers included. */
export function figuresBlock(results: Results, latestMd: string): string {
  const repeat = results.repeat ?? 1;
  const command = `pnpm bench${repeat > 1 ? ` --repeat ${repeat}` : ''}`;
  const missed = results.comparisons.flatMap((c) => c.targets.filter((t) => !t.met)).length;
  const total = results.comparisons.reduce((sum, c) => sum + c.targets.length, 0);
  return [
    FIGURES_START,
    '',
    `\`${command}\` at commit \`${results.commit}\` (${results.machine}, Node ${results.node}, niceness ${results.niceness}${results.pinning ? `, client on CPU ${results.pinning.client} and servers on ${results.pinning.servers}` : ''}, load average ${results.load.start.toFixed(1)} → ${results.load.end.toFixed(1)}, ${results.durationSeconds.toFixed(0)} s${repeat > 1 ? `, every comparison ${repeat} times` : ''}). Ratios above 1: Blockwire better; client CPU is the reference's CPU time ÷ Blockwire's for the same work (servers in other processes), wall is the reference's time ÷ Blockwire's (or Blockwire's rate ÷ the reference's, or size ÷ size for weight); medians${repeat > 1 ? ' over the runs' : ' of the pairs'}, lowest and highest pair in brackets. Every figure: [latest.md](${latestMd}).`,
    '',
    '| comparison | baseline | client CPU ratio | wall (or size) ratio |',
    '|---|---|---|---|',
    ...results.comparisons.flatMap(rows),
    '',
    `Targets of issue 24: ${total - missed} of ${total} met.`,
    '',
    ...results.comparisons.flatMap(targetLines),
    '',
    FIGURES_END,
  ].join('\n');
}

/** The README's text with its block replaced by `block`; throws when it has no block. */
export function withFigures(readme: string, block: string): string {
  return withBlock(readme, FIGURES_START, FIGURES_END, block);
}

/** The README's text with its runs-on-record block replaced by `block`; throws when it has none. */
export function withRuns(readme: string, block: string): string {
  return withBlock(readme, RUNS_START, RUNS_END, block);
}

function withBlock(readme: string, startMarker: string, endMarker: string, block: string): string {
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`no "${startMarker}" … "${endMarker}" block`);
  return readme.slice(0, start) + block + readme.slice(end + endMarker.length);
}

/** The READMEs that quote the figures, each with its link to latest.md. */
export const FIGURE_READMES = [
  { path: '../README.md', latestMd: 'bench/results/latest.md' },
  { path: 'README.md', latestMd: 'results/latest.md' },
] as const;

/** The README that lists the runs on record (relative to `benchDir`). */
export const RUNS_README = 'README.md';

/**
 * Rewrites the block of each README (paths relative to `benchDir`) from the results, and the
 * bench README's list of the runs on record from `results/runs/`.
 */
export function writeFigures(benchDir: string, results: Results): void {
  for (const { path, latestMd } of FIGURE_READMES) {
    const file = join(benchDir, path);
    writeFileSync(file, withFigures(readFileSync(file, 'utf8'), figuresBlock(results, latestMd)));
  }
  const file = join(benchDir, RUNS_README);
  const runs = runsOnRecord(join(benchDir, 'results'));
  writeFileSync(file, withRuns(readFileSync(file, 'utf8'), runsBlock(runs)));
}
