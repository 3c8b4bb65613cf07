/**
 * JSON-RPC: every block of a seeded anvil chain with its full transactions, plus the block's
 * receipts (two calls a block), all asked for at once, in milliseconds. Blockwire's RpcClient
 * (batches of 20, ids matched, results validated) against viem (batch size 20), ethers
 * (batchMaxCount 20) and raw undici POSTs of 20-call batches (no validation).
 */
import { createClient } from '@blockwire/core';
import { createRpcClient } from '@blockwire/rpc';
import { JsonRpcProvider, toQuantity } from 'ethers';
import { Pool } from 'undici';
import { createPublicClient, http } from 'viem';
import { seedBlocks, startAnvil, startNodeProxy } from '../anvil.ts';
import { API_KEY } from '../fixtures.ts';
import { type Contender, collectGarbage, measure, since } from '../harness.ts';
import type { Comparison } from '../report.ts';
import { ratioTarget, summarize } from '../report.ts';

const BATCH = 20;
/** The repeated-calls case: this many `getBlockByNumber` calls at once over this many blocks. */
const REPEATED_CALLS = 2_000;
const REPEATED_BLOCKS = 100;
const CHAIN = 'eth';

export interface JsonRpcOptions {
  blocks: number;
  transactionsPerBlock: number;
  rounds: number;
  warmup: number;
}

export async function jsonRpc(options: JsonRpcOptions): Promise<Comparison> {
  const anvil = await startAnvil();
  let proxy: Awaited<ReturnType<typeof startNodeProxy>> | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const seedStart = performance.now();
    const first = await seedBlocks(anvil.url, options.blocks, options.transactionsPerBlock);
    const seedSeconds = since(seedStart) / 1000;
    proxy = await startNodeProxy(anvil.url, CHAIN, API_KEY);
    const numbers = Array.from({ length: options.blocks }, (_, i) => first + i);
    const expectedCalls = numbers.length * 2;

    const client = createClient({
      apiKey: API_KEY,
      baseUrls: { node: proxy.url.replace(/\/[^/]+\/[^/]+$/, '') },
    });
    closers.push(() => client.close());
    const blockwire = createRpcClient(client, { chain: CHAIN });

    const viem = createPublicClient({ transport: http(proxy.url, { batch: { batchSize: BATCH } }) });
    // cacheTimeout -1: ethers answers a call it made in the last 250 ms from its cache, which sent
    // half the calls when two rounds came close together (a busy machine).
    const ethers = new JsonRpcProvider(proxy.url, 31337, {
      staticNetwork: true,
      batchMaxCount: BATCH,
      cacheTimeout: -1,
    });
    closers.push(async () => ethers.destroy());
    const pool = new Pool(new URL(proxy.url).origin, { connections: 32 });
    closers.push(() => pool.close());
    const proxyPath = new URL(proxy.url).pathname;
    // The raw reference sends exactly what a batching client should: blocks in order, 20 calls a POST.
    const rawBodies: string[] = [];
    const calls = numbers.flatMap((n) => [
      { method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true] },
      { method: 'eth_getBlockReceipts', params: [`0x${n.toString(16)}`] },
    ]);
    for (let i = 0; i < calls.length; i += BATCH) {
      rawBodies.push(
        JSON.stringify(calls.slice(i, i + BATCH).map((call, j) => ({ jsonrpc: '2.0', id: i + j, ...call }))),
      );
    }

    /** Each block's transactions and receipts must match: all of them arrived. */
    const check = (pairs: [{ transactions: unknown[] } | null, unknown[] | null][]) => {
      for (const [block, receipts] of pairs) {
        if (!block || !receipts || block.transactions.length !== options.transactionsPerBlock) {
          throw new Error('a block or its receipts are missing');
        }
        if (receipts.length !== block.transactions.length) throw new Error('receipts do not match the block');
      }
    };
    const requestsOf: Record<string, number[]> = {
      blockwire: [],
      viem: [],
      ethers: [],
      'undici-request': [],
    };
    const timed = (name: string, work: () => Promise<void>) => async () => {
      await proxy!.reset();
      const start = performance.now();
      await work();
      const ms = since(start);
      const { requests, calls: forwarded } = await proxy!.counts();
      if (forwarded !== expectedCalls)
        throw new Error(`${name} sent ${forwarded} calls, not ${expectedCalls}`);
      requestsOf[name]!.push(requests);
      return ms;
    };

    const contenders: Contender[] = [
      {
        name: 'blockwire',
        round: timed('blockwire', async () =>
          check(
            await Promise.all(
              numbers.map((n) =>
                Promise.all([blockwire.getBlockByNumber(n, true), blockwire.getBlockReceipts(n)]),
              ),
            ),
          ),
        ),
      },
      {
        name: 'viem',
        round: timed('viem', async () =>
          check(
            await Promise.all(
              numbers.map((n) =>
                Promise.all([
                  viem.getBlock({ blockNumber: BigInt(n), includeTransactions: true }),
                  viem.getBlockReceipts({ blockNumber: BigInt(n) }),
                ]),
              ),
            ),
          ),
        ),
      },
      {
        name: 'ethers',
        round: timed('ethers', async () =>
          check(
            await Promise.all(
              numbers.map(async (n) => {
                const [block, receipts] = await Promise.all([
                  ethers.getBlock(n, true),
                  ethers.send('eth_getBlockReceipts', [toQuantity(n)]) as Promise<unknown[]>,
                ]);
                return [block && { transactions: block.prefetchedTransactions }, receipts] as [
                  { transactions: unknown[] } | null,
                  unknown[],
                ];
              }),
            ),
          ),
        ),
      },
      {
        name: 'undici-request',
        round: timed('undici-request', async () => {
          const replies = await Promise.all(
            rawBodies.map(async (body) => {
              const response = await pool.request({
                path: proxyPath,
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body,
              });
              return JSON.parse(await response.body.text()) as { id: number; result: unknown }[];
            }),
          );
          const byId = new Map(replies.flat().map((reply) => [reply.id, reply.result]));
          check(
            numbers.map((_, i) => [
              byId.get(2 * i) as { transactions: unknown[] },
              byId.get(2 * i + 1) as unknown[],
            ]),
          );
        }),
      },
    ];
    const measured = await measure(contenders, 'blockwire', { ...options, settle: collectGarbage });
    const summary = summarize(measured, 'blockwire', false);
    // Identical calls in flight together (dashboards asking for the same blocks): HTTP requests only.
    const repeatedBlocks = Math.min(REPEATED_BLOCKS, numbers.length);
    const repeated = Array.from({ length: REPEATED_CALLS }, (_, i) => numbers[i % repeatedBlocks]!);
    const requestsFor = async (work: () => Promise<unknown>) => {
      await proxy!.reset();
      await work();
      return (await proxy!.counts()).requests;
    };
    const repeatedRequests = {
      blockwire: await requestsFor(() => Promise.all(repeated.map((n) => blockwire.getBlockByNumber(n)))),
      viem: await requestsFor(() =>
        Promise.all(repeated.map((n) => viem.getBlock({ blockNumber: BigInt(n) }))),
      ),
    };
    const requestText = Object.entries(requestsOf)
      .map(([name, counts]) => `${name} ${Math.round(counts.reduce((a, b) => a + b, 0) / counts.length)}`)
      .join(', ');
    return {
      id: 'json-rpc',
      title: `JSON-RPC: ${options.blocks} anvil blocks with full transactions + their receipts (${expectedCalls} calls)`,
      metric: 'time for all the calls (ratio: reference time ÷ Blockwire time)',
      unit: 'ms',
      higherIsBetter: false,
      ...summary,
      targets: [
        ratioTarget(
          'client CPU ≤ 1.15× raw undici batches of 20 (cpuRatios.undici-request ≥ 0.87)',
          { figure: 'cpuRatios', reference: 'undici-request', atLeast: 1 / 1.15 },
          summary,
        ),
        ratioTarget(
          'time ≤ 1.05 × raw undici batches of 20 (ratio ≥ 0.952)',
          { figure: 'ratios', reference: 'undici-request', atLeast: 1 / 1.05 },
          summary,
        ),
        ratioTarget(
          'ahead of viem (ratio > 1)',
          { figure: 'ratios', reference: 'viem', atLeast: 1, strict: true },
          summary,
        ),
        {
          text: `never more HTTP requests than viem for the same calls (every round, and ${REPEATED_CALLS.toLocaleString('en')} calls at once over ${repeatedBlocks} blocks)`,
          met:
            Math.max(...requestsOf.blockwire!) <= Math.min(...requestsOf.viem!) &&
            repeatedRequests.blockwire <= repeatedRequests.viem,
        },
      ],
      notes: [
        `Each round asks for all ${options.blocks} blocks at once: \`getBlockByNumber(n, true)\` and \`getBlockReceipts(n)\` (Blockwire), \`getBlock({ includeTransactions: true })\` and \`getBlockReceipts\` (viem ${'2.x'}, \`http(url, { batch: { batchSize: 20 } })\`), \`getBlock(n, true)\` and \`send("eth_getBlockReceipts")\` (ethers 6, \`batchMaxCount: 20\`), and ${rawBodies.length} POSTs of 20 calls with \`JSON.parse\` (undici).`,
        `HTTP requests a round, on average: ${requestText} (${Math.ceil(expectedCalls / BATCH)} are needed).`,
        `${REPEATED_CALLS.toLocaleString('en')} \`getBlockByNumber\` calls at once over ${repeatedBlocks} blocks (each asked ${REPEATED_CALLS / repeatedBlocks} times), HTTP requests: Blockwire ${repeatedRequests.blockwire}, viem ${repeatedRequests.viem} (with identical calls in flight merged, ${Math.ceil(repeatedBlocks / BATCH)} are needed).`,
        `The chain: ${options.blocks} blocks of ${options.transactionsPerBlock} transactions (half value transfers, half contract calls that emit a log), seeded in ${seedSeconds.toFixed(1)} s. Every client calls anvil through the same proxy (a child process, so its work is in no client's CPU) that serves \`POST /<chain>/<key>\`, as the service does.`,
      ],
    };
  } finally {
    for (const close of closers) await close().catch(() => {});
    await proxy?.close();
    await anvil.stop();
  }
}
