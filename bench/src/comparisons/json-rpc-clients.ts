/**
 * The JSON-RPC comparison's clients, each built in a process of its own (`client-process.ts`).
 * A run asks for every block with its full transactions and its receipts, all at once, and checks
 * that all of them arrived; with `repeated`, it asks for those blocks (headers only) instead,
 * each call on its own, to count how many HTTP requests identical calls in flight cost. Each
 * client imports its library when it is built, so a process holds only its own contender's code.
 */
import { builderOf, type Client, namesOf } from '../client-process.ts';
import { API_KEY } from '../fixtures.ts';
import { since } from '../harness.ts';
import { dispatchJson } from './undici-dispatch.ts';

export const BATCH = 20;
export const CHAIN = 'eth';

export interface JsonRpcConfig {
  /** The node's URL, `…/<chain>/<key>`, as the service serves it. */
  proxyUrl: string;
  numbers: number[];
  transactionsPerBlock: number;
}

export interface JsonRpcArgs {
  /** Block numbers to ask for one call each (the repeated-calls case), instead of a round. */
  repeated?: number[];
  /** How many times over a run asks for every block (1 unless said); its time is one pass's. */
  passes?: number;
}

type BlockAndReceipts = [{ transactions: unknown[] } | null, unknown[] | null];

interface Calls {
  round(): Promise<BlockAndReceipts[]>;
  repeated?(numbers: number[]): Promise<unknown>;
  close(): Promise<void>;
}

/** The calls a round makes, in order: each block, then its receipts. */
export function roundCalls(numbers: readonly number[]) {
  return numbers.flatMap((n) => [
    { method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true] },
    { method: 'eth_getBlockReceipts', params: [`0x${n.toString(16)}`] },
  ]);
}

async function blockwireCalls({ proxyUrl, numbers }: JsonRpcConfig): Promise<Calls> {
  const { createClient } = await import('@blockwire/core');
  const { createRpcClient } = await import('@blockwire/rpc');
  const client = createClient({
    apiKey: API_KEY,
    baseUrls: { node: proxyUrl.replace(/\/[^/]+\/[^/]+$/, '') },
  });
  const rpc = createRpcClient(client, { chain: CHAIN });
  return {
    round: () =>
      Promise.all(numbers.map((n) => Promise.all([rpc.getBlockByNumber(n, true), rpc.getBlockReceipts(n)]))),
    repeated: (blocks) => Promise.all(blocks.map((n) => rpc.getBlockByNumber(n))),
    close: () => client.close(),
  };
}

async function viemCalls({ proxyUrl, numbers }: JsonRpcConfig): Promise<Calls> {
  const { createPublicClient, http } = await import('viem');
  const viem = createPublicClient({ transport: http(proxyUrl, { batch: { batchSize: BATCH } }) });
  return {
    round: () =>
      Promise.all(
        numbers.map((n) =>
          Promise.all([
            viem.getBlock({ blockNumber: BigInt(n), includeTransactions: true }),
            viem.getBlockReceipts({ blockNumber: BigInt(n) }),
          ]),
        ),
      ),
    repeated: (blocks) => Promise.all(blocks.map((n) => viem.getBlock({ blockNumber: BigInt(n) }))),
    close: async () => {},
  };
}

async function ethersCalls({ proxyUrl, numbers }: JsonRpcConfig): Promise<Calls> {
  const { JsonRpcProvider, toQuantity } = await import('ethers');
  // cacheTimeout -1: ethers answers a call it made in the last 250 ms from its cache, which sent
  // half the calls when two rounds came close together (a busy machine).
  const ethers = new JsonRpcProvider(proxyUrl, 31337, {
    staticNetwork: true,
    batchMaxCount: BATCH,
    cacheTimeout: -1,
  });
  return {
    round: () =>
      Promise.all(
        numbers.map(async (n): Promise<BlockAndReceipts> => {
          const [block, receipts] = await Promise.all([
            ethers.getBlock(n, true),
            ethers.send('eth_getBlockReceipts', [toQuantity(n)]) as Promise<unknown[]>,
          ]);
          return [block && { transactions: block.prefetchedTransactions }, receipts];
        }),
      ),
    close: async () => ethers.destroy(),
  };
}

type Replies = { id: number; result: unknown }[];
type Post = (pool: import('undici').Pool, url: URL, body: string) => Promise<Replies>;

/**
 * Raw undici: exactly what a batching client should send, blocks in order, 20 calls a POST, each
 * answer `JSON.parse`d (no validation); `post` is how one POST is made and read.
 */
function rawUndiciCalls(post: Post) {
  return async ({ proxyUrl, numbers }: JsonRpcConfig): Promise<Calls> => {
    const { Pool } = await import('undici');
    const url = new URL(proxyUrl);
    const pool = new Pool(url.origin, { connections: 32 });
    const calls = roundCalls(numbers);
    const bodies: string[] = [];
    for (let i = 0; i < calls.length; i += BATCH) {
      bodies.push(
        JSON.stringify(calls.slice(i, i + BATCH).map((call, j) => ({ jsonrpc: '2.0', id: i + j, ...call }))),
      );
    }
    return {
      async round() {
        const replies = await Promise.all(bodies.map((body) => post(pool, url, body)));
        const byId = new Map(replies.flat().map((reply) => [reply.id, reply.result]));
        return numbers.map(
          (_, i): BlockAndReceipts => [
            byId.get(2 * i) as { transactions: unknown[] },
            byId.get(2 * i + 1) as unknown[],
          ],
        );
      },
      close: () => pool.close(),
    };
  };
}

const jsonHeaders = { 'content-type': 'application/json' };

/** `Pool.dispatch` with a handler gathering the body (the way Blockwire's transport reads one). */
const postByDispatch: Post = (pool, url, body) =>
  dispatchJson<Replies>(pool, {
    origin: url.origin,
    path: url.pathname,
    method: 'POST',
    headers: jsonHeaders,
    body,
  });

/** `Pool.request` + `body.text()`: undici's everyday API, which costs more per answer. */
const postByRequest: Post = async (pool, url, body) => {
  const response = await pool.request({ path: url.pathname, method: 'POST', headers: jsonHeaders, body });
  return JSON.parse(await response.body.text()) as Replies;
};

const clients = {
  blockwire: blockwireCalls,
  viem: viemCalls,
  ethers: ethersCalls,
  'undici-dispatch': rawUndiciCalls(postByDispatch),
  'undici-request': rawUndiciCalls(postByRequest),
} satisfies Record<string, (config: JsonRpcConfig) => Promise<Calls>>;

/** The JSON-RPC clients, in the order the comparison runs them. */
export const JSON_RPC_CLIENTS = namesOf(clients);

/** Each block's transactions and receipts must match: all of them arrived. */
function check(pairs: BlockAndReceipts[], transactionsPerBlock: number): void {
  for (const [block, receipts] of pairs) {
    if (!block || !receipts || block.transactions.length !== transactionsPerBlock) {
      throw new Error('a block or its receipts are missing');
    }
    if (receipts.length !== block.transactions.length) throw new Error('receipts do not match the block');
  }
}

export async function makeClient(name: string, config: JsonRpcConfig): Promise<Client<JsonRpcArgs>> {
  const make = builderOf(clients, name, 'JSON-RPC client');
  const calls = await make(config);
  return {
    async run({ repeated, passes = 1 }) {
      const start = performance.now();
      if (repeated) {
        if (!calls.repeated) throw new Error(`${name} has no repeated-calls case`);
        await calls.repeated(repeated);
        return since(start);
      }
      for (let pass = 0; pass < passes; pass++) check(await calls.round(), config.transactionsPerBlock);
      return since(start) / passes;
    },
    close: () => calls.close(),
  };
}
