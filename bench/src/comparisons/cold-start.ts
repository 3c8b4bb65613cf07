/**
 * Cold start, what a serverless user feels: a fresh Node process, from its spawn to its first
 * answered price call, against the REST server in a child process. Each contender is the program
 * of `weight`, bundled for Node as a serverless function ships: Blockwire's default build
 * (undici transport) and its fetch build (the `worker` condition), the official modular packages,
 * and no library at all (the runtime's `fetch`). Every round spawns fresh processes; a process's
 * client CPU is its own `process.cpuUsage()` at the answer (Node's start-up included).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evmTokenPrice } from '../fixtures.ts';
import { type Contender, type MeasureOptions, measure, type Run, since } from '../harness.ts';
import { type Case, type Comparison, caseOf, summarize } from '../report.ts';
import { listenInChild } from '../servers.ts';
import { type Bundle, bundle, FETCH_BUILD_CONDITION, programs, type Report } from './weight.ts';

export type ColdStartOptions = Pick<MeasureOptions, 'rounds' | 'warmup'>;

/** Prints the price with the CPU time the process has used so far, in ms. */
const withCpu: Report = (usdPrice) =>
  `{ const { user, system } = process.cpuUsage(); console.log(JSON.stringify({ usdPrice: ${usdPrice}, cpuMs: (user + system) / 1000 })); }`;

const BUILDS = {
  blockwire: { program: 'blockwire', conditions: [] },
  'blockwire-worker': { program: 'blockwire', conditions: [FETCH_BUILD_CONDITION] },
  'moralis-modular': { program: 'moralis-modular', conditions: [] },
  fetch: { program: 'fetch', conditions: [] },
} as const satisfies Record<string, { program: keyof typeof programs; conditions: readonly string[] }>;

type BuildName = keyof typeof BUILDS;

/** Spawns `node file` and resolves at its line with the price: ms since the spawn and its CPU. */
export function firstAnswer(file: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let answer: Run | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (answer || !out.includes('\n')) return;
      const elapsed = since(start);
      let line: { usdPrice?: unknown; cpuMs?: unknown } | undefined;
      try {
        line = JSON.parse(out.slice(0, out.indexOf('\n')));
      } catch {}
      if (line?.usdPrice !== evmTokenPrice.usdPrice || typeof line.cpuMs !== 'number') {
        reject(new Error(`${file} printed ${out}`));
        return;
      }
      answer = { figure: elapsed, cpuMs: line.cpuMs };
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.on('error', reject);
    // The next process starts only once this one is gone, so none overlaps another's start-up.
    child.on('close', (code) => {
      if (answer && code === 0) resolve(answer);
      else reject(new Error(`${file} exited with ${code} before its answer: ${err || out}`));
    });
  });
}

export async function coldStart(options: ColdStartOptions): Promise<Comparison> {
  const server = await listenInChild('rest');
  const dir = mkdtempSync(join(tmpdir(), 'blockwire-cold-start-'));
  try {
    const base = `${server.url}/api/v2.2`;
    const bundles = {} as Record<BuildName, Bundle & { file: string }>;
    for (const [name, { program, conditions }] of Object.entries(BUILDS) as [
      BuildName,
      (typeof BUILDS)[BuildName],
    ][]) {
      const file = join(dir, `${name}.mjs`);
      bundles[name] = {
        ...(await bundle(programs[program](base, withCpu), 'node', file, [...conditions])),
        file,
      };
    }
    const contender = (name: BuildName): Contender => ({
      name,
      round: () => firstAnswer(bundles[name].file),
    });
    const counts: Partial<Record<BuildName, number>> = {};
    const against = async (blockwire: BuildName) => {
      const contenders = [contender(blockwire), contender('moralis-modular'), contender('fetch')];
      const measured = await measure(contenders, blockwire, options);
      for (const [name, runs] of Object.entries(measured.runs)) counts[name as BuildName] ??= runs.length;
      return summarize(measured, blockwire, false);
    };
    const builds = [
      {
        build: 'blockwire' as const,
        name: 'Node, default build (undici transport)',
        summary: await against('blockwire'),
      },
      {
        build: 'blockwire-worker' as const,
        name: `Node, fetch build (condition \`${FETCH_BUILD_CONDITION}\`)`,
        summary: await against('blockwire-worker'),
      },
    ];
    const cases: Case[] = builds.map(({ name, summary }) => caseOf(name, summary));
    const headline = builds[0]!.summary;
    const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
    const msRange = (median: number, [low, high]: [number, number]) =>
      `${median.toFixed(0)} ms (${low.toFixed(0)}–${high.toFixed(0)})`;
    const timeOf = (name: BuildName) => {
      const own = builds.find((b) => b.build === name)?.summary;
      if (own) return msRange(own.blockwire, own.spread.blockwire);
      return msRange(headline.references[name]!, headline.spread.references[name]!);
    };
    return {
      id: 'cold-start',
      title: 'Cold start: a fresh Node process to its first answered price call',
      metric: 'ms from spawning `node bundle.mjs` to the line with the price (a server in a child process)',
      unit: 'ms',
      higherIsBetter: false,
      ...headline,
      headlineCase: cases[0]!.name,
      // No target yet: the figure is new. Every process must answer the right price, or the comparison fails.
      targets: [],
      cases,
      notes: [
        `Each contender's time, median (lowest–highest) over its fresh processes (measured processes; the Blockwire build of a case runs after every other process; the references' from the first case): ${(Object.keys(BUILDS) as BuildName[]).map((name) => `${name} ${timeOf(name)}, ${counts[name]} processes`).join('; ')}.`,
        `Beside it, the bundle each process ran (esbuild, platform node, minified; gzip -9), the same programs as \`weight\`'s, each printing its CPU time with the price: ${(Object.keys(BUILDS) as BuildName[]).map((name) => `${name} ${kB(bundles[name].bytes)} (${kB(bundles[name].gzipBytes)} gzip)`).join('; ')}.`,
        `A process's client CPU is \`process.cpuUsage()\` when it prints the price: Node's own start-up, loading the bundle, the call. ${options.warmup} warm-up round${options.warmup === 1 ? '' : 's'} first (the bundles into the page cache), then ${options.rounds} measured; one process at a time, each started once the one before has exited.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}
