/**
 * Solana prices for 10,000 addresses from a server that answers after 20 ms and refuses (429) a
 * key that has more than RATE_LIMIT_IN_FLIGHT requests in flight. Blockwire's
 * `getSolanaTokenPrices` (validation, chunks of 100, calls in flight at once, order kept) against
 * the same 100-at-a-time calls made one after the other with a raw undici Pool, in milliseconds.
 * The official SDK has no call for several Solana prices.
 */
import { createClient } from '@blockwire/core';
import { getSolanaTokenPrices } from '@blockwire/prices';
import { Pool } from 'undici';
import { API_KEY, solanaAddresses, solanaPrice } from '../fixtures.ts';
import { type Contender, collectGarbage, measure, since } from '../harness.ts';
import type { Comparison } from '../report.ts';
import { summarize } from '../report.ts';
import { listen, readText, sendJson } from '../servers.ts';

export const LATENCY_MS = 20;
/** The server's rule: more requests than this in flight for one key get a 429. */
export const RATE_LIMIT_IN_FLIGHT = 10;
const CHUNK = 100;

export interface SolanaScaleOptions {
  addresses: number;
  rounds: number;
  warmup: number;
}

export async function solanaScale(options: SolanaScaleOptions): Promise<Comparison> {
  const addresses = solanaAddresses(options.addresses);
  // Prepared once: the server's own work must not be what is measured.
  const answers = new Map<string, Buffer>();
  for (let i = 0; i < addresses.length; i += CHUNK) {
    const chunk = addresses.slice(i, i + CHUNK);
    answers.set(chunk[0]!, Buffer.from(JSON.stringify(chunk.map(solanaPrice))));
  }
  let inFlight = 0;
  let peak = 0;
  let refused = 0;
  let requests = 0;
  const server = await listen(async (req, res) => {
    requests++;
    if (inFlight >= RATE_LIMIT_IN_FLIGHT) {
      refused++;
      return sendJson(res, 429, Buffer.from('{"message":"Too many requests"}'), { 'retry-after': '1' });
    }
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      const { addresses: asked } = JSON.parse(await readText(req)) as { addresses: string[] };
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
      const answer = answers.get(asked[0]!);
      if (!answer || asked.length > CHUNK) sendJson(res, 400, Buffer.from('{"message":"unexpected chunk"}'));
      else sendJson(res, 200, answer);
    } finally {
      inFlight--;
    }
  });

  const client = createClient({ apiKey: API_KEY, baseUrls: { solana: server.url } });
  const pool = new Pool(server.url, { connections: 32 });
  const timed = async (work: () => Promise<number>) => {
    const start = performance.now();
    const priced = await work();
    if (priced !== addresses.length) throw new Error(`${priced} prices for ${addresses.length} addresses`);
    return since(start);
  };
  const counted =
    <T>(work: () => Promise<T>) =>
    async () => {
      const before = { requests, refused };
      peak = 0;
      const result = await work();
      perContender.push({ requests: requests - before.requests, refused: refused - before.refused, peak });
      return result;
    };
  const perContender: { requests: number; refused: number; peak: number }[] = [];
  const stats = { blockwire: [] as typeof perContender, sequential: [] as typeof perContender };

  const contenders: Contender[] = [
    {
      name: 'blockwire',
      round: async () => {
        perContender.length = 0;
        const ms = await counted(() =>
          timed(async () => (await getSolanaTokenPrices(client, { addresses })).length),
        )();
        stats.blockwire.push(...perContender);
        return ms;
      },
    },
    {
      name: 'sequential',
      round: async () => {
        perContender.length = 0;
        const ms = await counted(() =>
          timed(async () => {
            let priced = 0;
            for (let i = 0; i < addresses.length; i += CHUNK) {
              const response = await pool.request({
                path: '/token/mainnet/prices',
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
                body: JSON.stringify({ addresses: addresses.slice(i, i + CHUNK) }),
              });
              if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
              priced += (JSON.parse(await response.body.text()) as unknown[]).length;
            }
            return priced;
          }),
        )();
        stats.sequential.push(...perContender);
        return ms;
      },
    },
  ];
  try {
    const measured = await measure(contenders, 'blockwire', { ...options, settle: collectGarbage });
    const summary = summarize(measured, 'blockwire', false);
    const refusedBlockwire = stats.blockwire.reduce((sum, s) => sum + s.refused, 0);
    const peakBlockwire = Math.max(...stats.blockwire.map((s) => s.peak));
    return {
      id: 'solana-scale',
      title: `Solana: ${options.addresses.toLocaleString('en')} addresses, ${LATENCY_MS} ms server latency`,
      metric: 'time for all the prices (ratio: speed-up over 100-at-a-time sequential)',
      unit: 'ms',
      higherIsBetter: false,
      ...summary,
      targets: [
        { text: '≥ 5× faster than sequential', met: summary.ratios.sequential! >= 5 },
        {
          text: `no 429 from a server that allows ${RATE_LIMIT_IN_FLIGHT} requests in flight`,
          met: refusedBlockwire === 0,
        },
      ],
      notes: [
        `Blockwire: \`getSolanaTokenPrices(client, { addresses })\` with its default concurrency; ${stats.blockwire[0]?.requests ?? 0} requests a round, at most ${peakBlockwire} in flight, ${refusedBlockwire} answered 429 over all rounds (warm-up included).`,
        `sequential: the same ${Math.ceil(options.addresses / CHUNK)} calls of 100 addresses, one after the other, with a raw undici Pool (no validation). The official SDK has no call for several Solana prices.`,
        `The server answers each call after ${LATENCY_MS} ms and refuses a key with more than ${RATE_LIMIT_IN_FLIGHT} requests in flight with a 429 (the contract shows no rate limit: this one is the bench's).`,
      ],
    };
  } finally {
    await client.close();
    await pool.close();
    await server.close();
  }
}
