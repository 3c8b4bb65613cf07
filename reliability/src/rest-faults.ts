/**
 * Scenario `rest-faults`: SDK calls across every read operation while a fifth of the requests
 * fail (429 with and without Retry-After, 500, 502, 503, resets, truncated bodies, added latency),
 * then creates, adds and deletes under the same faults. Every answer is compared with a clean
 * run's; every Retry-After wait is measured by the server's clock (its request log); the writes
 * leave the state a clean run would, or say their outcome is unknown.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlockwireError, type Client } from '@blockwire/core';
import {
  addBitcoinStreamAddress,
  addBitcoinStreamXpub,
  createBitcoinStream,
  deleteBitcoinStream,
  listBitcoinStreamAddresses,
  listBitcoinStreams,
  listBitcoinStreamXpubs,
  removeBitcoinStreamAddress,
} from '@blockwire/streams';
import { type EmulatorProcess, startEmulatorProcess } from './processes.ts';
import { Checks, type Figure, result, type Scale, type ScenarioResult } from './report.ts';
import {
  asCall,
  callId,
  countingUnhandled,
  errorKind,
  isTyped,
  pool,
  restActions,
  taggedClient,
  tally,
} from './sdk.ts';

const COUNTS: Record<Scale, { reads: number; writeChains: number }> = {
  quick: { reads: 3_000, writeChains: 150 },
  full: { reads: 10_000, writeChains: 700 },
  soak: { reads: 10_000, writeChains: 700 },
};
const CONCURRENCY = 64;
/** The server's log keeps 10 000 requests: it is read and cleared after each slice of calls. */
const SLICE = 2_000;
const RETRY_AFTER_SECONDS = 1;

/** A fifth of all requests fail, in every way the issue lists; Solana's 429s carry no Retry-After. */
const FAULTS = {
  evm: {
    rate: 0.12,
    statuses: [429, 500, 502, 503],
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    resetRate: 0.04,
    truncateRate: 0.04,
  },
  solana: {
    rate: 0.12,
    statuses: [429, 503],
    retryAfterSeconds: null,
    resetRate: 0.04,
    truncateRate: 0.04,
    latencyMs: 15,
  },
  streams: {
    rate: 0.12,
    statuses: [429, 500, 502, 503],
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    resetRate: 0.04,
    truncateRate: 0.04,
  },
} as const;

interface LogEntry {
  interface: string;
  status: number;
  receivedAt: number;
  answeredAt?: number;
  requestId?: string;
  fault?: string;
}

const EVM_TOKENS = [
  '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  '0x6b175474e89094c44da98b954eedeac495271d0f',
  '0x514910771af9ca656af840dff83e8264ecf986ca',
];
const SOLANA_MINTS = [
  'So11111111111111111111111111111111111111112',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
  'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
];
const ENTITIES = ['binance', 'coinbase', 'uniswap', 'lido', 'aave', 'chainlink'];
const CATEGORIES = ['exchanges', 'lending', 'bridges', 'oracles'];
const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const XPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

interface World {
  streamIds: string[];
  heights: number[];
}

/** The inputs of each read operation, varied by `i`. Every GET operation must be here. */
const READ_INPUTS: Record<string, (i: number, world: World) => Record<string, unknown>> = {
  getEvmTokenPrice: (i) => ({ address: EVM_TOKENS[i % 4]!, toBlock: 21_000_000 + (i % 7) }),
  getSolanaTokenPrices: (i) => ({ addresses: SOLANA_MINTS.slice(0, 1 + (i % 4)) }),
  getEntity: (i) => ({ entityId: ENTITIES[i % ENTITIES.length]! }),
  searchEntities: (i) => ({ query: ['bin', 'coin', 'swap', 'lido'][i % 4]!, limit: 1 + (i % 5) }),
  getEntityCategories: (i) => ({ limit: 1 + (i % 9) }),
  getEntitiesByCategory: (i) => ({ categoryId: CATEGORIES[i % 4]!, page: i % 3, limit: 5 }),
  listBitcoinStreams: (i) => ({ limit: 1 + (i % 5) }),
  getBitcoinStream: (i, world) => ({ id: world.streamIds[i % world.streamIds.length]! }),
  listBitcoinStreamAddresses: (i, world) => ({ id: world.streamIds[i % world.streamIds.length]! }),
  listBitcoinStreamXpubs: (i, world) => ({ id: world.streamIds[i % world.streamIds.length]! }),
  getBitcoinBlockWebhookData: (i, world) => ({
    chainId: 'mainnet',
    blockNumber: world.heights[i % world.heights.length]!,
  }),
};

const readActions = () => {
  const reads = restActions.filter(
    (action) => action.operation.method === 'GET' || action.operation.id in READ_INPUTS,
  );
  const uncovered = reads.filter((action) => !(action.operation.id in READ_INPUTS));
  if (uncovered.length > 0) {
    throw new Error(`rest-faults has no inputs for ${uncovered.map((a) => a.operation.id).join(', ')}`);
  }
  return reads;
};

export async function restFaults(scale: Scale): Promise<ScenarioResult> {
  const started = performance.now();
  const counts = COUNTS[scale];
  const hookTarget = await startHookTarget();
  const emulator = await startEmulatorProcess();
  // Attempts per call, counted by the client's own hook (it runs inside the call's context).
  const attempts = new Map<string, number>();
  const client = taggedClient({
    apiKey: emulator.apiKey,
    baseUrls: emulator.urls,
    hooks: {
      onRequest: () => {
        const id = callId();
        if (id) attempts.set(id, (attempts.get(id) ?? 0) + 1);
      },
    },
  });
  try {
    const world = await prepare(emulator, client, hookTarget.url);
    const { value, unhandled } = await countingUnhandled(async () => {
      const reads = await readsUnderFaults(emulator, client, world, counts.reads, attempts);
      const writes = await writesUnderFaults(emulator, client, hookTarget.url, counts.writeChains);
      return { reads, writes };
    });
    const { reads, writes } = value;
    const retryAfter = checkRetryAfter([...reads.log, ...writes.log]);
    const injected: Record<string, number> = {};
    for (const entry of [...reads.log, ...writes.log]) {
      if (entry.fault) tally(injected, entry.fault === 'status' ? String(entry.status) : entry.fault);
    }
    const requests = reads.log.length + writes.log.length;
    const figures: Record<string, Figure> = {
      readCalls: reads.calls,
      readOperations: reads.operations,
      succeeded: reads.succeeded,
      wrongAnswers: reads.wrong,
      failedTyped: reads.failures,
      untypedFailures: reads.untyped,
      unhandledRejections: unhandled,
      requestsServed: requests,
      faultsInjected: injected,
      faultShare: Number(((reads.faulted + writes.faulted) / requests).toFixed(3)),
      retriesPerCall: Number((reads.retries / reads.calls).toFixed(3)),
      maxAttemptsOfACall: reads.maxAttempts,
      retryAfterWaitsMeasured: retryAfter.measured,
      retryAfterUndercut: retryAfter.undercut,
      retryAfterSmallestMarginMs: retryAfter.smallestMarginMs,
      writeCalls: writes.calls,
      writesSucceeded: writes.succeeded,
      writesOutcomeUnknown: writes.unknown,
      writesFailedDefinitely: writes.definite,
      writeFailures: writes.failures,
      duplicatedWrites: writes.duplicated,
      stateMismatches: writes.mismatches,
    };
    const checks = new Checks();
    checks.atLeast('readCalls', reads.calls, counts.reads);
    checks.equal('readOperations', reads.operations, Object.keys(READ_INPUTS).length);
    checks.atLeast('faultShare', figures.faultShare as number, 0.15);
    checks.equal('wrongAnswers', reads.wrong, 0);
    checks.equal('untypedFailures', reads.untyped + writes.untyped, 0);
    checks.equal('unhandledRejections', unhandled, 0);
    // 20 % faults and 3 attempts: about 0.8 % of calls fail all three; 5 % would mean retries broke.
    checks.atLeast('succeeded', reads.succeeded, Math.ceil(reads.calls * 0.95));
    checks.atLeast('retryAfterWaitsMeasured', retryAfter.measured, 1);
    checks.equal('retryAfterUndercut', retryAfter.undercut, 0);
    checks.equal('duplicatedWrites', writes.duplicated, 0);
    checks.equal('stateMismatches', writes.mismatches, 0);
    return result('rest-faults', started, figures, checks);
  } finally {
    await client.close();
    await emulator.stop();
    await hookTarget.close();
  }
}

/** Streams to read, a few blocks, and the faults cleared: the clean state both phases start from. */
async function prepare(emulator: EmulatorProcess, client: Client, webhookUrl: string): Promise<World> {
  const streamIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    const stream = await createBitcoinStream(client, { webhookUrl, tag: `reads-${i}` });
    await addBitcoinStreamAddress(client, { id: stream.id, address: WATCHED });
    if (i % 2 === 0) await addBitcoinStreamXpub(client, { id: stream.id, xpub: XPUB });
    streamIds.push(stream.id);
  }
  const { height } = await emulator.controlCall<{ height: number }>('POST', '/bitcoin/mine', { blocks: 3 });
  return { streamIds, heights: [height - 4, height - 3, height - 2, height - 1, height] };
}

async function setFaults(emulator: EmulatorProcess): Promise<void> {
  for (const [name, config] of Object.entries(FAULTS)) {
    await emulator.controlCall('POST', '/faults', { interface: name, ...config });
  }
}

async function takeLog(emulator: EmulatorProcess): Promise<LogEntry[]> {
  // A request's log entry is written when its connection closes, just after the client has read it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const { requests } = await emulator.controlCall<{ requests: LogEntry[] }>('GET', '/requests');
  await emulator.controlCall('DELETE', '/requests');
  return requests;
}

async function readsUnderFaults(
  emulator: EmulatorProcess,
  client: Client,
  world: World,
  count: number,
  attempts: Map<string, number>,
) {
  const actions = readActions();
  const calls = Array.from({ length: count }, (_, i) => {
    const action = actions[i % actions.length]!;
    const variant = Math.floor(i / actions.length);
    return { id: `r${i}`, action, input: READ_INPUTS[action.operation.id]!(variant, world) };
  });
  // The answers of a clean run, one per distinct input.
  const truth = new Map<string, string>();
  for (const { action, input } of calls) {
    const key = `${action.operation.id} ${JSON.stringify(input)}`;
    if (!truth.has(key)) truth.set(key, JSON.stringify(await action.call(client, input as never)));
  }
  await emulator.controlCall('DELETE', '/requests');
  await setFaults(emulator);
  const stats = { calls: 0, succeeded: 0, wrong: 0, untyped: 0, retries: 0, maxAttempts: 0, faulted: 0 };
  const failures: Record<string, number> = {};
  const log: LogEntry[] = [];
  for (let from = 0; from < calls.length; from += SLICE) {
    await pool(calls.slice(from, from + SLICE), CONCURRENCY, async ({ id, action, input }) => {
      stats.calls++;
      try {
        const answer = await asCall(id, () => action.call(client, input as never));
        stats.succeeded++;
        if (JSON.stringify(answer) !== truth.get(`${action.operation.id} ${JSON.stringify(input)}`))
          stats.wrong++;
      } catch (error) {
        tally(failures, errorKind(error));
        if (!isTyped(error)) stats.untyped++;
      }
      const made = attempts.get(id) ?? 0;
      stats.retries += Math.max(0, made - 1);
      stats.maxAttempts = Math.max(stats.maxAttempts, made);
    });
    log.push(...(await takeLog(emulator)));
  }
  await emulator.controlCall('DELETE', '/faults');
  stats.faulted = log.filter((entry) => entry.fault).length;
  return { ...stats, operations: actions.length, failures, log };
}

type Fact = boolean | 'either';
type Outcome = 'ok' | 'unknown' | 'failed';

/** What a write does to a fact of the state, given how it ended. */
function apply(before: Fact, to: boolean, outcome: Outcome): Fact {
  if (outcome === 'ok') return to;
  if (outcome === 'failed') return before;
  return before === to ? to : 'either';
}

async function writesUnderFaults(
  emulator: EmulatorProcess,
  client: Client,
  webhookUrl: string,
  chains: number,
) {
  const stats = {
    calls: 0,
    succeeded: 0,
    unknown: 0,
    definite: 0,
    untyped: 0,
    duplicated: 0,
    mismatches: 0,
    faulted: 0,
  };
  const failures: Record<string, number> = {};
  const expected = new Map<string, { stream: Fact; address: Fact; xpub: Fact }>();
  const write = async <T>(id: string, fn: () => Promise<T>): Promise<{ outcome: Outcome; value?: T }> => {
    stats.calls++;
    try {
      const value = await asCall(id, fn);
      stats.succeeded++;
      return { outcome: 'ok', value };
    } catch (error) {
      tally(failures, errorKind(error));
      if (!isTyped(error)) stats.untyped++;
      if (error instanceof BlockwireError && error.outcomeUnknown) {
        stats.unknown++;
        return { outcome: 'unknown' };
      }
      stats.definite++;
      return { outcome: 'failed' };
    }
  };
  await setFaults(emulator);
  await pool(
    Array.from({ length: chains }, (_, i) => i),
    CONCURRENCY / 2,
    async (i) => {
      const tag = `write-${i}`;
      const facts = { stream: false as Fact, address: false as Fact, xpub: false as Fact };
      expected.set(tag, facts);
      const created = await write(`w${i}-create`, () => createBitcoinStream(client, { webhookUrl, tag }));
      facts.stream = apply(facts.stream, true, created.outcome);
      // An unknown outcome leaves no id to go on with (the README's answer: look it up by tag).
      const id = created.value?.id;
      if (!id) return;
      const added = await write(`w${i}-add`, () => addBitcoinStreamAddress(client, { id, address: WATCHED }));
      facts.address = apply(facts.address, true, added.outcome);
      if (i % 4 === 1) {
        const xpub = await write(`w${i}-xpub`, () => addBitcoinStreamXpub(client, { id, xpub: XPUB }));
        facts.xpub = apply(facts.xpub, true, xpub.outcome);
      }
      if (i % 2 === 0) {
        const removed = await write(`w${i}-remove`, () =>
          removeBitcoinStreamAddress(client, { id, address: WATCHED }),
        );
        facts.address = apply(facts.address, false, removed.outcome);
      }
      if (i % 3 === 0) {
        const deleted = await write(`w${i}-delete`, () => deleteBitcoinStream(client, { id }));
        facts.stream = apply(facts.stream, false, deleted.outcome);
      }
    },
  );
  const log = await takeLog(emulator);
  await emulator.controlCall('DELETE', '/faults');
  stats.faulted = log.filter((entry) => entry.fault).length;

  // The state as it is now, without faults, against what the outcomes say it must be.
  const byTag = new Map<string, string[]>();
  for await (const stream of allStreams(client)) {
    if (stream.tag) byTag.set(stream.tag, [...(byTag.get(stream.tag) ?? []), stream.id]);
  }
  const matches = (fact: Fact, actual: boolean) => fact === 'either' || fact === actual;
  for (const [tag, facts] of expected) {
    const ids = byTag.get(tag) ?? [];
    if (ids.length > 1) stats.duplicated += ids.length - 1;
    if (!matches(facts.stream, ids.length > 0)) stats.mismatches++;
    if (ids.length !== 1) continue;
    const id = ids[0]!;
    const addresses = await listBitcoinStreamAddresses(client, { id });
    if (
      !matches(
        facts.address,
        (addresses.result ?? []).some((entry) => entry.address === WATCHED),
      )
    )
      stats.mismatches++;
    const xpubs = await listBitcoinStreamXpubs(client, { id });
    const xpubCount = xpubs.result?.length ?? 0;
    if (xpubCount > 1) stats.duplicated += xpubCount - 1;
    if (!matches(facts.xpub, xpubCount > 0)) stats.mismatches++;
  }
  return { ...stats, failures, log };
}

async function* allStreams(client: Client) {
  let cursor: string | undefined;
  do {
    const page = await listBitcoinStreams(client, { limit: 100, ...(cursor ? { cursor } : {}) });
    yield* page.result;
    cursor = typeof page.cursor === 'string' ? page.cursor : undefined;
  } while (cursor);
}

/**
 * For every answer that asked for a wait (a 429 or 503 with Retry-After), the same call's next
 * attempt must reach the server at least that long after the answer was written: by the server's
 * clock, with sub-millisecond times from its request log.
 */
function checkRetryAfter(log: LogEntry[]) {
  const byCall = new Map<string, LogEntry[]>();
  for (const entry of log) {
    if (!entry.requestId) continue;
    byCall.set(entry.requestId, [...(byCall.get(entry.requestId) ?? []), entry]);
  }
  let measured = 0;
  let undercut = 0;
  let smallestMarginMs = Number.POSITIVE_INFINITY;
  for (const attempts of byCall.values()) {
    attempts.sort((a, b) => a.receivedAt - b.receivedAt);
    for (let i = 0; i + 1 < attempts.length; i++) {
      const answer = attempts[i]!;
      const asked = retryAfterOf(answer);
      if (asked === undefined || answer.answeredAt === undefined) continue;
      const margin = attempts[i + 1]!.receivedAt - answer.answeredAt - asked * 1000;
      measured++;
      if (margin < 0) undercut++;
      smallestMarginMs = Math.min(smallestMarginMs, margin);
    }
  }
  return {
    measured,
    undercut,
    smallestMarginMs: measured ? Number(smallestMarginMs.toFixed(3)) : 'none',
  };
}

/** The Retry-After an injected answer carried, in seconds (the fault configuration says). */
function retryAfterOf(entry: LogEntry): number | undefined {
  if (entry.fault !== 'status' || (entry.status !== 429 && entry.status !== 503)) return undefined;
  const config = FAULTS[entry.interface as keyof typeof FAULTS] as
    | { retryAfterSeconds: number | null }
    | undefined;
  return config?.retryAfterSeconds ?? undefined;
}

/** Where created streams send their verification POST: answered 200 at once. */
async function startHookTarget() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
