/**
 * REST: N EVM token price calls at concurrency 32 against a server in a child process, in
 * requests per second and client CPU per call. Blockwire (`getEvmTokenPrice`: input validation,
 * URL building, auth, retries, timeout, response validation) against undici's `dispatch` and
 * `Pool.request` (no validation), the global fetch and the official SDK.
 */
import { createClient, createFetchTransport } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { type Dispatcher, Pool } from 'undici';
import { API_KEY, evmTokenPrice, USDC } from '../fixtures.ts';
import { type Contender, collectGarbage, measure, since, withConcurrency } from '../harness.ts';
import { startMoralis } from '../moralis.ts';
import type { Case, Comparison } from '../report.ts';
import { cpuPerCall, ratioTarget, summarize } from '../report.ts';
import { listenInChild } from '../servers.ts';

const CONCURRENCY = 32;

function caseOf(name: string, summary: ReturnType<typeof summarize>): Case {
  const { blockwire, references, ratios, spread } = summary;
  return { name, blockwire, references, ratios, ratioRanges: spread.ratios };
}

export interface RestOverheadOptions {
  calls: number;
  rounds: number;
  warmup: number;
}

let restServer: ReturnType<typeof listenInChild> | undefined;

export async function restOverhead(options: RestOverheadOptions): Promise<Comparison> {
  // One server for the whole process: the official SDK is a singleton that keeps its first base URL,
  // so a repeated run must find the server where it was (it ends with the bench's process).
  restServer ??= listenInChild('rest');
  const server = await restServer;
  const base = `${server.url}/api/v2.2`;
  const path = `/api/v2.2/erc20/${USDC}/price?chain=0x1`;
  const headers = { accept: 'application/json', 'x-api-key': API_KEY };

  const client = createClient({ apiKey: API_KEY, baseUrls: { evm: base } });
  // The transport a Node program gets when it bundles the fetch build (the weight comparison's
  // small Node bundle): measured here so the choice of undici on Node is a measured one.
  const fetchClient = createClient({
    apiKey: API_KEY,
    baseUrls: { evm: base },
    transport: createFetchTransport({ fetch }),
  });
  const pool = new Pool(server.url, { connections: CONCURRENCY });
  const moralis = await startMoralis(base);

  let concurrency = CONCURRENCY;
  let calls = options.calls;
  const perSecond = async (call: () => Promise<unknown>) => {
    const start = performance.now();
    await withConcurrency(calls, concurrency, call);
    return calls / (since(start) / 1000);
  };
  const check = (price: { usdPrice?: unknown }) => {
    if (price.usdPrice !== evmTokenPrice.usdPrice) throw new Error('wrong price');
  };

  /** The leanest undici call there is: `dispatch` with a handler that gathers the bytes, then `JSON.parse`. */
  const dispatchJson = (dispatcher: Dispatcher) =>
    new Promise<unknown>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      dispatcher.dispatch(
        { origin: server.url, path, method: 'GET', headers },
        {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            if (status !== 200) reject(new Error(`status ${status}`));
            else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          },
          onResponseError(_controller, error) {
            reject(error);
          },
        },
      );
    });
  const dispatchPool = new Pool(server.url, { connections: CONCURRENCY });

  const contenders: Contender[] = [
    {
      name: 'blockwire',
      round: () =>
        perSecond(async () => check(await getEvmTokenPrice(client, { address: USDC, chain: 'eth' }))),
    },
    {
      name: 'undici-dispatch',
      round: () => perSecond(async () => check((await dispatchJson(dispatchPool)) as { usdPrice?: unknown })),
    },
    {
      name: 'undici-request',
      round: () =>
        perSecond(async () => {
          const response = await pool.request({ path, method: 'GET', headers });
          check(JSON.parse(await response.body.text()));
        }),
    },
    {
      name: 'fetch',
      round: () =>
        perSecond(async () => {
          const response = await fetch(`${server.url}${path}`, { headers });
          check(await response.json());
        }),
    },
    {
      name: 'moralis',
      round: () =>
        perSecond(async () => {
          const price = await moralis.EvmApi.token.getTokenPrice({ address: USDC, chain: '0x1' });
          check(price.toJSON());
        }),
    },
  ];
  try {
    const measured = await measure(contenders, 'blockwire', { ...options, settle: collectGarbage });
    const summary = summarize(measured, 'blockwire', true);
    const cpu = cpuPerCall(measured, calls);
    // One call at a time: what a single call costs, in µs, beside raw undici and fetch.
    concurrency = 1;
    calls = Math.max(200, Math.round(options.calls / 5));
    const aloneCalls = calls;
    const alone = summarize(
      await measure(
        contenders.filter((c) => c.name !== 'moralis'),
        'blockwire',
        { ...options, settle: collectGarbage },
      ),
      'blockwire',
      true,
    );
    // Blockwire on the fetch build's transport against its default (undici), at concurrency 32.
    concurrency = CONCURRENCY;
    calls = options.calls;
    const transports = await measure(
      [
        contenders[0]!,
        {
          name: 'blockwire-fetch',
          round: () =>
            perSecond(async () =>
              check(await getEvmTokenPrice(fetchClient, { address: USDC, chain: 'eth' })),
            ),
        },
      ],
      'blockwire',
      { ...options, rounds: Math.min(options.rounds, 5), settle: collectGarbage },
    );
    const transportCpu = cpuPerCall(transports, calls);
    const micros = (perSecond: number) => 1e6 / perSecond;
    return {
      id: 'rest-overhead',
      title: `REST: ${options.calls.toLocaleString('en')} price calls, concurrency ${CONCURRENCY}, server in a child process`,
      metric: 'requests per second',
      unit: 'req/s',
      higherIsBetter: true,
      ...summary,
      cpuPerCall: cpu,
      targets: [
        ratioTarget(
          'client CPU ≤ 1.15× undici.dispatch + JSON.parse (cpuRatios.undici-dispatch ≥ 0.87)',
          { figure: 'cpuRatios', reference: 'undici-dispatch', atLeast: 1 / 1.15 },
          summary,
        ),
        {
          text: 'client CPU overhead over undici.dispatch + JSON.parse ≤ 5 µs a call',
          met: cpu.blockwire - cpu.references['undici-dispatch']! <= 5,
        },
      ],
      cases: [
        caseOf(`concurrency ${CONCURRENCY}, ${options.calls.toLocaleString('en')} calls`, summary),
        caseOf(`concurrency 1, ${aloneCalls.toLocaleString('en')} calls`, alone),
      ],
      notes: [
        'Blockwire: `getEvmTokenPrice(client, { address, chain: "eth" })` with the default client (undici transport, retries, 30 s timeout, input and response validation).',
        'undici-dispatch: `Pool.dispatch` with a handler that gathers the body, then `JSON.parse` (no validation), the leanest undici call; undici-request: `Pool.request` + `body.text()` + `JSON.parse`; fetch: global `fetch` + `json()`; moralis: `Moralis.EvmApi.token.getTokenPrice` (moralis 2.27.2, `evmApiBaseUrl` pointed at the server).',
        `One call at a time, a call took ${micros(alone.blockwire).toFixed(0)} µs with Blockwire, ${micros(alone.references['undici-dispatch']!).toFixed(0)} µs with undici.dispatch + JSON.parse and ${micros(alone.references.fetch!).toFixed(0)} µs with fetch (medians of the rounds, server included).`,
        `Client CPU per call (process.cpuUsage over the run ÷ calls, medians): Blockwire ${cpu.blockwire.toFixed(1)} µs; ${Object.entries(
          cpu.references,
        )
          .map(([name, us]) => `${name} ${us.toFixed(1)} µs`)
          .join(', ')}.`,
        'The server runs in a child process: its work is in no CPU figure, only in wall time.',
        `Blockwire on Node with the fetch build's transport (\`createFetchTransport({ fetch })\`, what a Node bundle made with the \`worker\` condition uses; see \`weight\`), ${Math.min(options.rounds, 5)} pairs at concurrency ${CONCURRENCY}: ${transportCpu.references['blockwire-fetch']!.toFixed(1)} µs of client CPU a call against ${transportCpu.blockwire.toFixed(1)} µs with the default undici transport (${(transportCpu.references['blockwire-fetch']! / transportCpu.blockwire).toFixed(2)}×). This is why the Node build keeps undici although its bundle is larger.`,
      ],
    };
  } finally {
    await client.close();
    await fetchClient.close();
    await pool.close();
    await dispatchPool.close();
  }
}
