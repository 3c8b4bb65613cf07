/**
 * REST: N EVM token price calls at concurrency 32 against an in-process server, in requests per
 * second. Blockwire (`getEvmTokenPrice`: input validation, URL building, auth, retries, timeout,
 * response validation) against a raw undici Pool (no validation), the global fetch and the official SDK.
 */
import { createClient } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { Pool } from 'undici';
import { API_KEY, evmTokenPrice, USDC } from '../fixtures.ts';
import { type Contender, collectGarbage, measure, since, withConcurrency } from '../harness.ts';
import { startMoralis } from '../moralis.ts';
import type { Case, Comparison } from '../report.ts';
import { summarize } from '../report.ts';
import { listen, sendJson } from '../servers.ts';

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

export async function restOverhead(options: RestOverheadOptions): Promise<Comparison> {
  const body = Buffer.from(JSON.stringify(evmTokenPrice));
  const server = await listen((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith(`/api/v2.2/erc20/`)) sendJson(res, 200, body);
    else sendJson(res, 404, Buffer.from('{"message":"not found"}'));
  });
  const base = `${server.url}/api/v2.2`;
  const path = `/api/v2.2/erc20/${USDC}/price?chain=0x1`;
  const headers = { accept: 'application/json', 'x-api-key': API_KEY };

  const client = createClient({ apiKey: API_KEY, baseUrls: { evm: base } });
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

  const contenders: Contender[] = [
    {
      name: 'blockwire',
      round: () =>
        perSecond(async () => check(await getEvmTokenPrice(client, { address: USDC, chain: 'eth' }))),
    },
    {
      name: 'undici',
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
    // One call at a time: what a single call costs, in µs, beside raw undici and fetch.
    concurrency = 1;
    calls = Math.max(200, Math.round(options.calls / 5));
    const alone = summarize(
      await measure(
        contenders.filter((c) => c.name !== 'moralis'),
        'blockwire',
        { ...options, settle: collectGarbage },
      ),
      'blockwire',
      true,
    );
    const micros = (perSecond: number) => 1e6 / perSecond;
    return {
      id: 'rest-overhead',
      title: `REST: ${options.calls.toLocaleString('en')} price calls, concurrency ${CONCURRENCY}, in-process server`,
      metric: 'requests per second',
      unit: 'req/s',
      higherIsBetter: true,
      ...summary,
      targets: [{ text: '≥ 0.90 of raw undici', met: summary.ratios.undici! >= 0.9 }],
      cases: [
        caseOf(`concurrency ${CONCURRENCY}, ${options.calls.toLocaleString('en')} calls`, summary),
        caseOf(`concurrency 1, ${calls.toLocaleString('en')} calls`, alone),
      ],
      notes: [
        'Blockwire: `getEvmTokenPrice(client, { address, chain: "eth" })` with the default client (undici transport, retries, 30 s timeout, input and response validation).',
        'undici: `Pool.request` with the same headers, then `JSON.parse` of the body (no validation); fetch: global `fetch` + `json()`; moralis: `Moralis.EvmApi.token.getTokenPrice` (moralis 2.27.2, `evmApiBaseUrl` pointed at the server).',
        `One call at a time, a call took ${micros(alone.blockwire).toFixed(0)} µs with Blockwire, ${micros(alone.references.undici!).toFixed(0)} µs with raw undici and ${micros(alone.references.fetch!).toFixed(0)} µs with fetch (medians of the rounds, server included).`,
        'Server and client share the process, as the issue measures it: the server’s cost is in every figure.',
      ],
    };
  } finally {
    await client.close();
    await pool.close();
    await server.close();
  }
}
