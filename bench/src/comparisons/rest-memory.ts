/**
 * REST memory: the resident set size of a fresh process after N EVM token price calls at
 * concurrency 32 against the server in a child process, Blockwire's default client against the
 * leanest undici client (`dispatch` + `JSON.parse`, no validation). Every run is a process of its
 * own, started for it and ended after it, so no run inherits another's heap.
 */
import { startClientProcess } from '../client-process.ts';
import { type Contender, type MeasureOptions, measure } from '../harness.ts';
import { type Comparison, figureTarget, summarize } from '../report.ts';
import { listenInChild } from '../servers.ts';
import { CONCURRENCY, type RestArgs, type RestClientName, type RestConfig } from './rest-clients.ts';

export interface RestMemoryOptions extends Pick<MeasureOptions, 'rounds' | 'warmup'> {
  calls: number;
}

/** Blockwire may hold at most this many times the dispatch client's resident memory. */
const AT_MOST = 1.3;

export async function restMemory(options: RestMemoryOptions): Promise<Comparison> {
  const server = await listenInChild('rest');
  const config: RestConfig = { serverUrl: server.url };
  const module = new URL('./rest-memory-clients.ts', import.meta.url);
  const args: RestArgs = { calls: options.calls, concurrency: CONCURRENCY };
  const contender = (name: RestClientName): Contender => ({
    name,
    async round() {
      const client = await startClientProcess<RestConfig, RestArgs>(module, name, config);
      try {
        return await client.run(args);
      } finally {
        await client.close();
      }
    },
  });
  try {
    const measured = await measure(
      [contender('blockwire'), contender('undici-dispatch')],
      'blockwire',
      options,
    );
    const summary = summarize(measured, 'blockwire', false);
    const mb = (value: number) => `${value.toFixed(0)} MB`;
    const [low, high] = summary.spread.blockwire;
    const [refLow, refHigh] = summary.spread.references['undici-dispatch']!;
    return {
      id: 'rest-memory',
      title: `REST memory: resident set after ${options.calls.toLocaleString('en')} price calls, concurrency ${CONCURRENCY}, a fresh process a run`,
      metric: 'MB resident (process.memoryUsage().rss) once the calls are answered',
      unit: 'MB',
      higherIsBetter: false,
      ...summary,
      targets: [
        figureTarget(
          `resident memory ≤ ${AT_MOST}× undici.dispatch + JSON.parse's (ratios.undici-dispatch ≥ ${(1 / AT_MOST).toFixed(2)})`,
          { figure: 'ratios', reference: 'undici-dispatch', atLeast: 1 / AT_MOST },
          summary,
        ),
      ],
      notes: [
        `Each run is a fresh Node process (a child of the bench) that builds its client, makes ${options.calls.toLocaleString('en')} \`getEvmTokenPrice\` calls (Blockwire's default client) or \`Pool.dispatch\` + \`JSON.parse\` calls (undici-dispatch), ${CONCURRENCY} at a time, checks every price, then reads \`process.memoryUsage().rss\`; no collection is forced first, so the figure is what such a program holds, its heap's unswept garbage included.`,
        `Resident set, median (lowest–highest) over ${summary.rounds} processes each: Blockwire ${mb(summary.blockwire)} (${mb(low)}–${mb(high)}), undici-dispatch ${mb(summary.references['undici-dispatch']!)} (${mb(refLow)}–${mb(refHigh)}). The ratio is the reference's ÷ Blockwire's, paired per round (> 1: Blockwire holds less).`,
        "The CPU ratio is the same runs' client CPU, Node's start-up and the client's loading included.",
      ],
    };
  } finally {
    await server.close();
  }
}
