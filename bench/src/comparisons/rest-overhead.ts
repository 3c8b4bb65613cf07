/**
 * REST: N EVM token price calls at concurrency 32 against a server in a child process, in
 * requests per second and client CPU per call. Blockwire (`getEvmTokenPrice`: input validation,
 * URL building, auth, retries, timeout, response validation) against undici's `dispatch` and
 * `Pool.request` (no validation), the global fetch and the official SDK.
 */
import { ownProcessNote, type ProcessOptions, startClientProcesses } from '../client-process.ts';
import { type Contender, type MeasureOptions, measure, warmupNote } from '../harness.ts';
import type { Comparison } from '../report.ts';
import { caseOf, cpuOverheads, cpuPerCall, figureTarget, summarize } from '../report.ts';
import { listenInChild } from '../servers.ts';
import {
  CONCURRENCY,
  REST_CLIENTS,
  type RestArgs,
  type RestClientName,
  type RestConfig,
} from './rest-clients.ts';

export interface RestOverheadOptions extends ProcessOptions, Pick<MeasureOptions, 'warmupOf'> {
  calls: number;
  rounds: number;
  warmup: number;
}

let restServer: ReturnType<typeof listenInChild> | undefined;

export async function restOverhead(options: RestOverheadOptions): Promise<Comparison> {
  // One server for the whole bench (it ends with the bench's process).
  restServer ??= listenInChild('rest');
  const server = await restServer;
  const config: RestConfig = { serverUrl: server.url };
  const processes = await startClientProcesses<RestConfig, RestArgs>(
    new URL('./rest-clients.ts', import.meta.url),
    REST_CLIENTS,
    config,
  );
  let concurrency = CONCURRENCY;
  let calls = options.calls;
  const contender = (name: RestClientName): Contender => ({
    name,
    round: () => processes.clients[name]!.run({ calls, concurrency }),
  });
  // Blockwire's variants are measured against it on their own, below.
  const variants: RestClientName[] = ['blockwire-fetch', 'blockwire-subscribed'];
  const contenders = REST_CLIENTS.filter((name) => !variants.includes(name)).map(contender);

  // The measurements after the first run in its warm processes, moralis left out of them.
  const { warmupOf: _, ...inWarmProcesses } = options;
  try {
    const measured = await measure(contenders, 'blockwire', {
      ...options,
      spreadOver: processes.spreadOver(options.processes),
    });
    const summary = summarize(measured, 'blockwire', true);
    const cpu = cpuPerCall(measured, 'blockwire', calls);
    const overheads = cpuOverheads(measured, calls);
    // One call at a time: what a single call costs, in µs, beside raw undici and fetch.
    concurrency = 1;
    calls = Math.max(200, Math.round(options.calls / 5));
    const aloneCalls = calls;
    const aloneMeasured = await measure(
      contenders.filter((c) => c.name !== 'moralis'),
      'blockwire',
      inWarmProcesses,
    );
    const alone = summarize(aloneMeasured, 'blockwire', true);
    const aloneCpu = cpuPerCall(aloneMeasured, 'blockwire', aloneCalls);
    // Blockwire on the fetch build's transport against its default (undici), at concurrency 32.
    concurrency = CONCURRENCY;
    calls = options.calls;
    const transports = await measure([contender('blockwire'), contender('blockwire-fetch')], 'blockwire', {
      ...inWarmProcesses,
      rounds: Math.min(options.rounds, 5),
    });
    const transportCpu = cpuPerCall(transports, 'blockwire', calls);
    // The same client with a subscriber on every blockwire:call event.
    const watched = await measure([contender('blockwire'), contender('blockwire-subscribed')], 'blockwire', {
      ...inWarmProcesses,
      rounds: Math.min(options.rounds, 5),
    });
    const watchedCpu = cpuPerCall(watched, 'blockwire', calls);
    const aloneCase = caseOf(`concurrency 1, ${aloneCalls.toLocaleString('en')} calls`, alone);
    const cases = [
      caseOf(`concurrency ${CONCURRENCY}, ${options.calls.toLocaleString('en')} calls`, summary),
      aloneCase,
    ];
    const micros = (perSecond: number) => 1e6 / perSecond;
    const listed = (values: Record<string, number>, show: (us: number) => string) =>
      Object.entries(values)
        .map(([name, us]) => `${name} ${show(us)}`)
        .join(', ');
    return {
      id: 'rest-overhead',
      title: `REST: ${options.calls.toLocaleString('en')} price calls, concurrency ${CONCURRENCY}, server in a child process`,
      metric: 'requests per second',
      unit: 'req/s',
      higherIsBetter: true,
      ...summary,
      cpuPerCall: cpu,
      cpuOverheads: overheads,
      targets: [
        figureTarget(
          `client CPU ≥ 0.90 of undici.dispatch + JSON.parse's at concurrency ${CONCURRENCY} (cpuRatios.undici-dispatch ≥ 0.90)`,
          { figure: 'cpuRatios', reference: 'undici-dispatch', atLeast: 0.9 },
          summary,
        ),
        figureTarget(
          "client CPU ≥ 0.90 of undici.dispatch + JSON.parse's one call at a time (the concurrency 1 case's cpuRatios.undici-dispatch ≥ 0.90)",
          { figure: 'cpuRatios', reference: 'undici-dispatch', case: aloneCase.name, atLeast: 0.9 },
          { cases },
        ),
        figureTarget(
          'client CPU overhead over undici.dispatch + JSON.parse ≤ 5 µs a call (cpuOverheads.undici-dispatch, paired)',
          { figure: 'cpuOverheads', reference: 'undici-dispatch', atMostMicros: 5 },
          { cpuOverheads: overheads },
        ),
      ],
      cases,
      notes: [
        'Blockwire: `getEvmTokenPrice(client, { address, chain: "eth" })` with the default client (undici transport, retries, 30 s timeout, input and response validation).',
        'undici-dispatch: `Pool.dispatch` with a handler that gathers the body, then `JSON.parse` (no validation), the leanest undici call; undici-request: `Pool.request` + `body.text()` + `JSON.parse`; fetch: global `fetch` + `json()`; moralis: `Moralis.EvmApi.token.getTokenPrice` (moralis 2.27.2, `evmApiBaseUrl` pointed at the server).',
        `One call at a time, a call took ${micros(alone.blockwire).toFixed(0)} µs with Blockwire, ${micros(alone.references['undici-dispatch']!).toFixed(0)} µs with undici.dispatch + JSON.parse and ${micros(alone.references.fetch!).toFixed(0)} µs with fetch (medians of the rounds, server included); client CPU a call: Blockwire ${aloneCpu.blockwire.toFixed(1)} µs; ${listed(aloneCpu.references, (us) => `${us.toFixed(1)} µs`)}.`,
        `Client CPU per call (process.cpuUsage over the run ÷ calls, the median of each contender's runs): Blockwire ${cpu.blockwire.toFixed(1)} µs; ${listed(cpu.references, (us) => `${us.toFixed(1)} µs`)}. Blockwire's over each, paired as the CPU ratios are (median of the pairs): ${listed(overheads, (us) => `${us >= 0 ? '+' : ''}${us.toFixed(1)} µs`)}.`,
        `The server runs in a child process: its work is in no CPU figure, only in wall time. ${ownProcessNote(options.processes)} ${warmupNote(options)}`,
        `Blockwire on Node with the fetch build's transport (\`createFetchTransport({ fetch })\`, what a Node bundle made with the \`worker\` condition uses; see \`weight\`), ${Math.min(options.rounds, 5)} pairs at concurrency ${CONCURRENCY}: ${transportCpu.references['blockwire-fetch']!.toFixed(1)} µs of client CPU a call against ${transportCpu.blockwire.toFixed(1)} µs with the default undici transport (${(transportCpu.references['blockwire-fetch']! / transportCpu.blockwire).toFixed(2)}×). This is why the Node build keeps undici although its bundle is larger.`,
        `Blockwire with a subscriber on every event of the \`blockwire:call\` tracing channel (a function that does nothing; what \`@blockwire/opentelemetry\` listens on), ${Math.min(options.rounds, 5)} pairs at concurrency ${CONCURRENCY}: ${watchedCpu.references['blockwire-subscribed']!.toFixed(1)} µs of client CPU a call against ${watchedCpu.blockwire.toFixed(1)} µs with nobody subscribed (${(watchedCpu.references['blockwire-subscribed']! / watchedCpu.blockwire).toFixed(2)}×). With nobody subscribed a call reads \`hasSubscribers\` once and builds nothing.`,
      ],
    };
  } finally {
    await processes.close();
  }
}
