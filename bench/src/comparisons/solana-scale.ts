/**
 * Solana prices for 10,000 addresses from a server (in a child process) that answers after 10 ms
 * and refuses (429) a key that has more than RATE_LIMIT_IN_FLIGHT requests in flight.
 * Blockwire's `getSolanaTokenPrices` (validation, chunks of 100, calls in flight at once, order
 * kept) against plain undici with the same number of calls in flight (`undici-concurrent`), and
 * against the same 100-at-a-time calls one after the other (`sequential`), in milliseconds. A
 * second case asks Blockwire for 16 in flight, more than the server allows. The official SDK has
 * no call for several Solana prices. Each client runs in a process of its own (`solana-clients.ts`).
 */
import { SOLANA_PRICES_DEFAULT_CONCURRENCY } from '@blockwire/prices';
import { Pool } from 'undici';
import { LATENCY_MS, RATE_LIMIT_IN_FLIGHT, SOLANA_CHUNK, type SolanaStats } from '../child-servers.ts';
import {
  type ClientProcesses,
  ownProcessNote,
  type ProcessOptions,
  startClientProcesses,
} from '../client-process.ts';
import { type Contender, type MeasureOptions, measureInterleaved, warmupNote } from '../harness.ts';
import type { Comparison } from '../report.ts';
import { caseOf, figureTarget, summarize } from '../report.ts';
import { listenInChild } from '../servers.ts';
import {
  SOLANA_CLIENTS,
  type SolanaArgs,
  type SolanaClientName,
  type SolanaConfig,
} from './solana-clients.ts';

/** More calls in flight than the server allows: Blockwire must adapt to its 429s. */
const OVER_LIMIT_CONCURRENCY = 16;

export interface SolanaScaleOptions extends ProcessOptions, Pick<MeasureOptions, 'warmupOf'> {
  addresses: number;
  /**
   * How many times over a run prices the addresses (`sequential`: once). A run's CPU figure is
   * that of one pass, averaged over them: a client's collections come every few passes, and a
   * single pass holds one or none.
   */
  passes: number;
  rounds: number;
  warmup: number;
  /**
   * Rounds of the over-limit case, spread over the main measurement's stretches and run in the
   * processes each warmed up, after its rounds there and one warm-up round of their own.
   */
  overLimitRounds: number;
}

export async function solanaScale(options: SolanaScaleOptions): Promise<Comparison> {
  const server = await listenInChild('solana', String(options.addresses));
  const calls = Math.ceil(options.addresses / SOLANA_CHUNK);
  const statsPool = new Pool(server.url, { connections: 1 });
  const serverStats = async (path: string) =>
    (await (await statsPool.request({ path, method: 'GET' })).body.json()) as SolanaStats;
  const config: SolanaConfig = { serverUrl: server.url, addresses: options.addresses };
  let processes: ClientProcesses<SolanaArgs> | undefined;

  const perContender: Record<string, SolanaStats[]> = {};
  /** One run of a client process, with what the server saw of it (Blockwire's per concurrency). */
  const contender = (name: SolanaClientName, concurrency: number): Contender => {
    const statsOf = name === 'blockwire' ? `blockwire-${concurrency}` : name;
    // Sequential's time is the server's latency a hundred times over, and steady: once is enough.
    const passes = name === 'sequential' ? 1 : options.passes;
    return {
      name,
      async round() {
        await serverStats('/__stats/reset');
        const run = await processes!.clients[name]!.run({ concurrency, passes });
        perContender[statsOf] ??= [];
        perContender[statsOf].push(await serverStats('/__stats'));
        return { figure: run.figure, cpuMs: run.cpuMs / passes };
      },
    };
  };
  const contenders = (blockwireConcurrency: number): Contender[] => [
    contender('blockwire', blockwireConcurrency),
    contender('undici-concurrent', SOLANA_PRICES_DEFAULT_CONCURRENCY),
    contender('sequential', 1),
  ];
  try {
    processes = await startClientProcesses<SolanaConfig, SolanaArgs>(
      new URL('./solana-clients.ts', import.meta.url),
      SOLANA_CLIENTS,
      config,
    );
    const spreadOver = processes.spreadOver(options.processes);
    // The over-limit rounds take a share of every stretch, run in the processes that stretch
    // warmed up (no restart of their own): in the last stretch's processes alone, they were one
    // draw of a process a run, and their three runs missed ±10 % (1.07, 1.07, 0.94 at 4e62f03).
    const inWarmProcesses = { processes: spreadOver.processes, restart: async () => {} };
    const [measured, overLimitMeasured] = await measureInterleaved([
      {
        contenders: contenders(SOLANA_PRICES_DEFAULT_CONCURRENCY),
        blockwire: 'blockwire',
        options: { ...options, spreadOver },
      },
      {
        contenders: contenders(OVER_LIMIT_CONCURRENCY).slice(0, 2),
        blockwire: 'blockwire',
        // One warm-up round: a process's first run at 16 meets the 429s it then adapts to.
        options: {
          rounds: options.overLimitRounds,
          warmup: 1,
          spreadOver: inWarmProcesses,
          label: 'over-limit',
        },
      },
    ]);
    const summary = summarize(measured!, 'blockwire', false);
    const overLimit = summarize(overLimitMeasured!, 'blockwire', false);
    const refused = (name: string) => (perContender[name] ?? []).reduce((sum, s) => sum + s.refused, 0);
    const peak = (name: string) => Math.max(0, ...(perContender[name] ?? []).map((s) => s.peak));
    const atDefault = `blockwire-${SOLANA_PRICES_DEFAULT_CONCURRENCY}`;
    const atOver = `blockwire-${OVER_LIMIT_CONCURRENCY}`;
    const overLimitCase = `Blockwire asked for ${OVER_LIMIT_CONCURRENCY} in flight; undici at ${SOLANA_PRICES_DEFAULT_CONCURRENCY}`;
    const cases = [
      caseOf(`Blockwire at its default concurrency (${SOLANA_PRICES_DEFAULT_CONCURRENCY})`, summary),
      {
        name: overLimitCase,
        blockwire: overLimit.blockwire,
        references: overLimit.references,
        ratios: overLimit.ratios,
        ratioRanges: overLimit.spread.ratios,
        cpuRatios: overLimit.cpuRatios,
        cpuRatioRanges: overLimit.spread.cpuRatios,
      },
    ];
    return {
      id: 'solana-scale',
      title: `Solana: ${options.addresses.toLocaleString('en')} addresses, ${LATENCY_MS} ms server latency, at most ${RATE_LIMIT_IN_FLIGHT} in flight`,
      metric: 'time for all the prices',
      unit: 'ms',
      higherIsBetter: false,
      ...summary,
      targets: [
        figureTarget(
          `never slower than plain undici with the same ${SOLANA_PRICES_DEFAULT_CONCURRENCY} in flight (ratio ≥ 0.95)`,
          { figure: 'ratios', reference: 'undici-concurrent', atLeast: 0.95 },
          summary,
        ),
        figureTarget(
          '≥ 5× faster than sequential',
          { figure: 'ratios', reference: 'sequential', atLeast: 5 },
          summary,
        ),
        {
          text: `no 429 at the default concurrency from a server that allows ${RATE_LIMIT_IN_FLIGHT} in flight`,
          met: refused(atDefault) === 0,
        },
        figureTarget(
          `asked for ${OVER_LIMIT_CONCURRENCY} in flight: no slower than plain undici at ${SOLANA_PRICES_DEFAULT_CONCURRENCY} (ratio ≥ 0.95)`,
          { figure: 'ratios', reference: 'undici-concurrent', case: overLimitCase, atLeast: 0.95 },
          { cases },
        ),
      ],
      cases,
      notes: [
        `Blockwire: \`getSolanaTokenPrices(client, { addresses }, { concurrency })\`; at ${SOLANA_PRICES_DEFAULT_CONCURRENCY}: ${(perContender[atDefault]?.[0]?.requests ?? 0) / options.passes} requests a pass, at most ${peak(atDefault)} in flight, ${refused(atDefault)} answered 429 over all rounds; at ${OVER_LIMIT_CONCURRENCY}: at most ${peak(atOver)} in flight, ${refused(atOver)} answered 429 over all rounds (warm-up included).`,
        `undici-concurrent: the same ${calls} calls of ${SOLANA_CHUNK} addresses with a raw undici Pool, ${SOLANA_PRICES_DEFAULT_CONCURRENCY} in flight (no validation, no retry); sequential: the same calls one after the other. The official SDK has no call for several Solana prices.`,
        `The server (a child process) answers each call after ${LATENCY_MS} ms and refuses a key with more than ${RATE_LIMIT_IN_FLIGHT} requests in flight with a 429 and Retry-After: 1 (the contract shows no rate limit: this one is the bench's).`,
        ...(options.passes > 1
          ? [
              `A run prices the ${options.addresses.toLocaleString('en')} addresses ${options.passes} times over (sequential: once); its time and client CPU are those of one pass, averaged: a client's collections come every few passes, so one pass's CPU is that of a pass with one or of a pass without.`,
            ]
          : []),
        `${ownProcessNote(options.processes)} ${warmupNote(options)}`,
      ],
    };
  } finally {
    await processes?.close();
    await statsPool.close();
    await server.close();
  }
}
