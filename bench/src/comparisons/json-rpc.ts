/**
 * JSON-RPC: every block of a seeded anvil chain with its full transactions, plus the block's
 * receipts (two calls a block), all asked for at once, in milliseconds. Blockwire's RpcClient
 * (batches of 20, ids matched, results validated) against viem (batch size 20), ethers
 * (batchMaxCount 20) and raw undici POSTs of 20-call batches (no validation), read through `dispatch`
 * (the leanest way, Blockwire's) and through `Pool.request` + `body.text()`.
 */
import { seedBlocks, startAnvil, startNodeProxy } from '../anvil.ts';
import {
  type ClientProcesses,
  ownProcessNote,
  type ProcessOptions,
  startClientProcesses,
} from '../client-process.ts';
import { API_KEY } from '../fixtures.ts';
import { type Contender, type MeasureOptions, measure, since, warmupNote } from '../harness.ts';
import type { Comparison } from '../report.ts';
import { figureTarget, summarize } from '../report.ts';
import { BATCH, CHAIN, JSON_RPC_CLIENTS, type JsonRpcArgs, type JsonRpcConfig } from './json-rpc-clients.ts';

/** The repeated-calls case: this many `getBlockByNumber` calls at once over this many blocks. */
const REPEATED_CALLS = 2_000;
const REPEATED_BLOCKS = 100;

/**
 * Every client process runs without V8's memory reducer. The clients run in turn, so each one idles
 * for seconds between its rounds while the others run; on a timer, the reducer then shrank some
 * processes' heaps, and their next rounds paid to grow them again (scavenges of 30–190 ms, 5,000–
 * 11,000 page faults a round). Which processes, timing decided: viem's ranged 1.26–3.20 within a
 * run, and its runs missed the agreement at cac20d4, at 9989e9d and with 8 warm-up rounds. A viem
 * client alone in a loop, 5 s between rounds, took 105–390 ms a settled round with the reducer and
 * 105–250 without, as with 1 s between rounds.
 */
const CLIENT_NODE_OPTIONS = ['--no-memory-reducer'];

export interface JsonRpcOptions extends ProcessOptions, Pick<MeasureOptions, 'warmupOf'> {
  blocks: number;
  transactionsPerBlock: number;
  rounds: number;
  warmup: number;
  /**
   * How many times over a run asks for every block (ethers: once; its pass costs some 15 times
   * Blockwire's CPU, collections and all, and would take most of the comparison's time). A run's
   * time and client CPU are one pass's, averaged: a client's mark-compacts come every few passes
   * and cost about as much as the rest of a pass (at dfb94a6, Blockwire's runs took 50–65 ms of
   * CPU without one, 105–135 with), so one pass's CPU is that of a pass with one or without, and
   * the pairs of single passes turned on where the two clients' collections fell.
   */
  passes: number;
}

export async function jsonRpc(options: JsonRpcOptions): Promise<Comparison> {
  const anvil = await startAnvil();
  let proxy: Awaited<ReturnType<typeof startNodeProxy>> | undefined;
  let processes: ClientProcesses<JsonRpcArgs> | undefined;
  try {
    const seedStart = performance.now();
    const first = await seedBlocks(anvil.url, options.blocks, options.transactionsPerBlock);
    const seedSeconds = since(seedStart) / 1000;
    proxy = await startNodeProxy(anvil.url, CHAIN, API_KEY);
    const numbers = Array.from({ length: options.blocks }, (_, i) => first + i);
    const expectedCalls = numbers.length * 2;
    const config: JsonRpcConfig = {
      proxyUrl: proxy.url,
      numbers,
      transactionsPerBlock: options.transactionsPerBlock,
    };
    processes = await startClientProcesses<JsonRpcConfig, JsonRpcArgs>(
      new URL('./json-rpc-clients.ts', import.meta.url),
      JSON_RPC_CLIENTS,
      config,
      { nodeOptions: CLIENT_NODE_OPTIONS },
    );
    const { clients } = processes;

    const requestsOf: Record<string, number[]> = Object.fromEntries(
      JSON_RPC_CLIENTS.map((name) => [name, []]),
    );
    const contenders: Contender[] = JSON_RPC_CLIENTS.map((name) => ({
      name,
      round: async () => {
        await proxy!.reset();
        const passes = name === 'ethers' ? 1 : options.passes;
        const run = await clients[name]!.run({ passes });
        const { requests, calls: forwarded } = await proxy!.counts();
        if (forwarded !== expectedCalls * passes)
          throw new Error(`${name} sent ${forwarded} calls in ${passes} passes, not ${expectedCalls} a pass`);
        requestsOf[name]!.push(requests / passes);
        return { figure: run.figure, cpuMs: run.cpuMs / passes };
      },
    }));
    const measured = await measure(contenders, 'blockwire', {
      ...options,
      spreadOver: processes.spreadOver(options.processes),
    });
    const summary = summarize(measured, 'blockwire', false);
    // Identical calls in flight together (dashboards asking for the same blocks): HTTP requests only.
    const repeatedBlocks = Math.min(REPEATED_BLOCKS, numbers.length);
    const repeated = Array.from({ length: REPEATED_CALLS }, (_, i) => numbers[i % repeatedBlocks]!);
    const requestsFor = async (name: string) => {
      await proxy!.reset();
      await clients[name]!.run({ repeated });
      return (await proxy!.counts()).requests;
    };
    const repeatedRequests = { blockwire: await requestsFor('blockwire'), viem: await requestsFor('viem') };
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
        figureTarget(
          'client CPU ≤ 1.15× raw undici `dispatch` batches of 20 (cpuRatios.undici-dispatch ≥ 0.87)',
          { figure: 'cpuRatios', reference: 'undici-dispatch', atLeast: 1 / 1.15 },
          summary,
        ),
        figureTarget(
          'time ≤ 1.05 × raw undici `dispatch` batches of 20 (ratio ≥ 0.952)',
          { figure: 'ratios', reference: 'undici-dispatch', atLeast: 1 / 1.05 },
          summary,
        ),
        figureTarget(
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
        `Each pass asks for all ${options.blocks} blocks at once: \`getBlockByNumber(n, true)\` and \`getBlockReceipts(n)\` (Blockwire), \`getBlock({ includeTransactions: true })\` and \`getBlockReceipts\` (viem ${'2.x'}, \`http(url, { batch: { batchSize: 20 } })\`), \`getBlock(n, true)\` and \`send("eth_getBlockReceipts")\` (ethers 6, \`batchMaxCount: 20\`), and ${Math.ceil(expectedCalls / BATCH)} POSTs of 20 calls with \`JSON.parse\` (undici: \`Pool.dispatch\` with a handler gathering the body, \`undici-dispatch\`; \`Pool.request\` + \`body.text()\`, \`undici-request\`).`,
        `HTTP requests a pass, on average: ${requestText} (${Math.ceil(expectedCalls / BATCH)} are needed).`,
        `${REPEATED_CALLS.toLocaleString('en')} \`getBlockByNumber\` calls at once over ${repeatedBlocks} blocks (each asked ${REPEATED_CALLS / repeatedBlocks} times), HTTP requests: Blockwire ${repeatedRequests.blockwire}, viem ${repeatedRequests.viem} (with identical calls in flight merged, ${Math.ceil(repeatedBlocks / BATCH)} are needed).`,
        `${ownProcessNote(options.processes)} ${warmupNote(options)} Each of those processes runs with \`${CLIENT_NODE_OPTIONS.join(' ')}\`: the clients take turns, so each idles for seconds between its rounds, and V8's memory reducer shrank the heaps of some of them then, whose next rounds paid to grow them again.`,
        `The chain: ${options.blocks} blocks of ${options.transactionsPerBlock} transactions (half value transfers, half contract calls that emit a log), seeded in ${seedSeconds.toFixed(1)} s. Every client calls anvil through the same proxy (a child process, so its work is in no client's CPU) that serves \`POST /<chain>/<key>\`, as the service does, and answers a block or receipts call anvil has answered before from memory (the chain does not change once seeded): a pass is bound by its client, not by anvil reading the blocks again.`,
        ...(options.passes > 1
          ? [
              `A run asks for the blocks ${options.passes} times over (ethers: once, a pass of its costing some 15 times Blockwire's); its time and client CPU are those of one pass, averaged: a client's mark-compacts come every few passes, so one pass's CPU is that of a pass with one or of a pass without.`,
            ]
          : []),
      ],
    };
  } finally {
    await processes?.close();
    await proxy?.close();
    await anvil.stop();
  }
}
