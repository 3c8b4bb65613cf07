/**
 * Solana prices for 10,000 addresses from a server (in a child process) that answers after 20 ms
 * and refuses (429) a key that has more than RATE_LIMIT_IN_FLIGHT requests in flight.
 * Blockwire's `getSolanaTokenPrices` (validation, chunks of 100, calls in flight at once, order
 * kept) against plain undici with the same number of calls in flight (`undici-concurrent`), and
 * against the same 100-at-a-time calls one after the other (`sequential`), in milliseconds. A
 * second case asks Blockwire for 16 in flight, more than the server allows. The official SDK has
 * no call for several Solana prices.
 */
import { createClient } from '@blockwire/core';
import { getSolanaTokenPrices, SOLANA_PRICES_DEFAULT_CONCURRENCY } from '@blockwire/prices';
import { Pool } from 'undici';
import { LATENCY_MS, RATE_LIMIT_IN_FLIGHT, SOLANA_CHUNK, type SolanaStats } from '../child-servers.ts';
import { API_KEY, solanaAddresses } from '../fixtures.ts';
import { type Contender, collectGarbage, measure, since, withConcurrency } from '../harness.ts';
import type { Comparison } from '../report.ts';
import { figureTarget, summarize } from '../report.ts';
import { listenInChild } from '../servers.ts';

/** More calls in flight than the server allows: Blockwire must adapt to its 429s. */
const OVER_LIMIT_CONCURRENCY = 16;

export interface SolanaScaleOptions {
  addresses: number;
  rounds: number;
  warmup: number;
}

export async function solanaScale(options: SolanaScaleOptions): Promise<Comparison> {
  const addresses = solanaAddresses(options.addresses);
  const chunks: string[][] = [];
  for (let i = 0; i < addresses.length; i += SOLANA_CHUNK) chunks.push(addresses.slice(i, i + SOLANA_CHUNK));
  const server = await listenInChild('solana', String(options.addresses));
  const client = createClient({ apiKey: API_KEY, baseUrls: { solana: server.url } });
  const pool = new Pool(server.url, { connections: 32 });
  const statsPool = new Pool(server.url, { connections: 1 });
  const serverStats = async (path: string) =>
    (await (await statsPool.request({ path, method: 'GET' })).body.json()) as SolanaStats;

  const perContender: Record<string, SolanaStats[]> = {};
  const timed = (name: string, work: () => Promise<number>) => async () => {
    await serverStats('/__stats/reset');
    const start = performance.now();
    const priced = await work();
    const ms = since(start);
    if (priced !== addresses.length) throw new Error(`${priced} prices for ${addresses.length} addresses`);
    perContender[name] ??= [];
    perContender[name].push(await serverStats('/__stats'));
    return ms;
  };
  const postChunk = async (chunk: string[]) => {
    const response = await pool.request({
      path: '/token/mainnet/prices',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ addresses: chunk }),
    });
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    return (JSON.parse(await response.body.text()) as unknown[]).length;
  };
  const blockwire = (concurrency: number) => async () =>
    (await getSolanaTokenPrices(client, { addresses }, { concurrency })).length;

  const contenders = (blockwireConcurrency: number): Contender[] => [
    { name: 'blockwire', round: timed(`blockwire-${blockwireConcurrency}`, blockwire(blockwireConcurrency)) },
    {
      name: 'undici-concurrent',
      round: timed('undici-concurrent', async () => {
        let priced = 0;
        await withConcurrency(chunks.length, SOLANA_PRICES_DEFAULT_CONCURRENCY, async (i) => {
          // Read `priced` after the await: `priced += await …` would add to a stale value.
          const count = await postChunk(chunks[i]!);
          priced += count;
        });
        return priced;
      }),
    },
    {
      name: 'sequential',
      round: timed('sequential', async () => {
        let priced = 0;
        for (const chunk of chunks) priced += await postChunk(chunk);
        return priced;
      }),
    },
  ];
  try {
    const measured = await measure(contenders(SOLANA_PRICES_DEFAULT_CONCURRENCY), 'blockwire', {
      ...options,
      settle: collectGarbage,
    });
    const summary = summarize(measured, 'blockwire', false);
    const overLimit = summarize(
      await measure(contenders(OVER_LIMIT_CONCURRENCY).slice(0, 2), 'blockwire', {
        ...options,
        settle: collectGarbage,
      }),
      'blockwire',
      false,
    );
    const refused = (name: string) => (perContender[name] ?? []).reduce((sum, s) => sum + s.refused, 0);
    const peak = (name: string) => Math.max(0, ...(perContender[name] ?? []).map((s) => s.peak));
    const atDefault = `blockwire-${SOLANA_PRICES_DEFAULT_CONCURRENCY}`;
    const atOver = `blockwire-${OVER_LIMIT_CONCURRENCY}`;
    const overLimitCase = `Blockwire asked for ${OVER_LIMIT_CONCURRENCY} in flight; undici at ${SOLANA_PRICES_DEFAULT_CONCURRENCY}`;
    const cases = [
      {
        name: `Blockwire at its default concurrency (${SOLANA_PRICES_DEFAULT_CONCURRENCY})`,
        blockwire: summary.blockwire,
        references: summary.references,
        ratios: summary.ratios,
        ratioRanges: summary.spread.ratios,
      },
      {
        name: overLimitCase,
        blockwire: overLimit.blockwire,
        references: overLimit.references,
        ratios: overLimit.ratios,
        ratioRanges: overLimit.spread.ratios,
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
        `Blockwire: \`getSolanaTokenPrices(client, { addresses }, { concurrency })\`; at ${SOLANA_PRICES_DEFAULT_CONCURRENCY}: ${perContender[atDefault]?.[0]?.requests ?? 0} requests a round, at most ${peak(atDefault)} in flight, ${refused(atDefault)} answered 429 over all rounds; at ${OVER_LIMIT_CONCURRENCY}: at most ${peak(atOver)} in flight, ${refused(atOver)} answered 429 over all rounds (warm-up included).`,
        `undici-concurrent: the same ${chunks.length} calls of 100 addresses with a raw undici Pool, ${SOLANA_PRICES_DEFAULT_CONCURRENCY} in flight (no validation, no retry); sequential: the same calls one after the other. The official SDK has no call for several Solana prices.`,
        `The server (a child process) answers each call after ${LATENCY_MS} ms and refuses a key with more than ${RATE_LIMIT_IN_FLIGHT} requests in flight with a 429 and Retry-After: 1 (the contract shows no rate limit: this one is the bench's).`,
      ],
    };
  } finally {
    await client.close();
    await pool.close();
    await statsPool.close();
    await server.close();
  }
}
