/**
 * The Solana comparison's clients, each built in a process of its own (`client-process.ts`), so
 * each one's CPU time is its own work and its own heap's collections, not the bench's. A run
 * prices every address `passes` times over, `concurrency` calls in flight (one at a time for
 * `sequential`), checks it got a price for each, and returns the time of a pass in milliseconds.
 */

import { SOLANA_CHUNK } from '../child-servers.ts';
import { builderOf, type Client, namesOf } from '../client-process.ts';
import { API_KEY, solanaAddresses } from '../fixtures.ts';
import { since, withConcurrency } from '../harness.ts';

export interface SolanaConfig {
  /** The Solana server's origin. */
  serverUrl: string;
  /** How many addresses a run prices (the server knows the same ones). */
  addresses: number;
}

export interface SolanaArgs {
  concurrency: number;
  /** How many times over a run prices every address (one after another). */
  passes: number;
}

/** Prices every address once; resolves with how many prices came back. */
type PriceAll = (concurrency: number) => Promise<number>;

interface Prices {
  priceAll: PriceAll;
  close(): Promise<void>;
}

/** `getSolanaTokenPrices` with the default client: validation, chunks of 100, retries, order kept. */
async function blockwirePrices({ serverUrl, addresses }: SolanaConfig): Promise<Prices> {
  const { createClient } = await import('@blockwire/core');
  const { getSolanaTokenPrices } = await import('@blockwire/prices');
  const client = createClient({ apiKey: API_KEY, baseUrls: { solana: serverUrl } });
  const all = solanaAddresses(addresses);
  return {
    priceAll: async (concurrency) =>
      (await getSolanaTokenPrices(client, { addresses: all }, { concurrency })).length,
    close: () => client.close(),
  };
}

/** The same calls of 100 addresses with a raw undici Pool: no validation, no retry. */
async function undiciPrices({ serverUrl, addresses }: SolanaConfig) {
  const { Pool } = await import('undici');
  const pool = new Pool(serverUrl, { connections: 32 });
  const all = solanaAddresses(addresses);
  const chunks: string[][] = [];
  for (let i = 0; i < all.length; i += SOLANA_CHUNK) chunks.push(all.slice(i, i + SOLANA_CHUNK));
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
  return { chunks, postChunk, close: () => pool.close() };
}

async function undiciConcurrentPrices(config: SolanaConfig): Promise<Prices> {
  const { chunks, postChunk, close } = await undiciPrices(config);
  return {
    async priceAll(concurrency) {
      let priced = 0;
      await withConcurrency(chunks.length, concurrency, async (i) => {
        // Read `priced` after the await: `priced += await …` would add to a stale value.
        const count = await postChunk(chunks[i]!);
        priced += count;
      });
      return priced;
    },
    close,
  };
}

async function sequentialPrices(config: SolanaConfig): Promise<Prices> {
  const { chunks, postChunk, close } = await undiciPrices(config);
  return {
    async priceAll() {
      let priced = 0;
      for (const chunk of chunks) priced += await postChunk(chunk);
      return priced;
    },
    close,
  };
}

const clients = {
  blockwire: blockwirePrices,
  'undici-concurrent': undiciConcurrentPrices,
  sequential: sequentialPrices,
} satisfies Record<string, (config: SolanaConfig) => Promise<Prices>>;

export type SolanaClientName = keyof typeof clients;
/** The Solana clients, in the order the comparison runs them. */
export const SOLANA_CLIENTS = namesOf(clients);

export async function makeClient(name: string, config: SolanaConfig): Promise<Client<SolanaArgs>> {
  const { priceAll, close } = await builderOf(clients, name, 'Solana client')(config);
  return {
    async run({ concurrency, passes }) {
      const start = performance.now();
      for (let pass = 0; pass < passes; pass++) {
        const priced = await priceAll(concurrency);
        if (priced !== config.addresses)
          throw new Error(`${priced} prices for ${config.addresses} addresses`);
      }
      return since(start) / passes;
    },
    close,
  };
}
