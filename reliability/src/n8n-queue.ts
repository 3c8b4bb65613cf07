/**
 * Scenario `n8n-queue`: the n8n package in n8n's queue mode on this machine — a real n8n 2.41.1
 * (main, webhook processor, two workers; PostgreSQL 15 and Redis from Debian, all on 127.0.0.1)
 * with the emulator behind the credentials. The Blockwire Trigger (Bitcoin mode, PostgreSQL repeat
 * store in n8n's own database) follows payments mempool → in block → confirmed under the
 * emulator's delivery faults: 20 % of attempts lost, half before n8n sees them and half after it
 * answered them (the emulator retries both). A recording proxy in front of the webhook processor
 * sees each attempt that reaches n8n, which gives the figures per stage; the emulator's own
 * delivery totals must agree with them. Figures per stage; every transaction must reach the workflow once per stage, on
 * the workers, with the stream registered and deleted once; then the 1,000-item Solana workflow
 * runs on a worker with 10 HTTP calls.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type Client, createClient } from '@blockwire/core';
import { DEFAULT_SECRET_KEY } from '@blockwire/emulator';
import {
  type BitcoinDeliveryStage,
  bitcoinDeliveryStage,
  getBitcoinStream,
  listBitcoinStreams,
  parseBitcoinWebhook,
  signBody,
} from '@blockwire/streams';
import {
  type PostgresServer,
  type RedisServer,
  startPostgres,
  startRedis,
} from '@blockwire/testing/services';
import { type FaultProxy, startFaultProxy } from 'n8n-nodes-blockwire/e2e/fault-proxy.ts';
import { ensureN8n } from 'n8n-nodes-blockwire/e2e/install-n8n.ts';
import {
  type Execution,
  itemsOf,
  N8nApi,
  runN8nCli,
  sleep,
  waitFor,
  writeImportFiles,
} from 'n8n-nodes-blockwire/e2e/n8n.ts';
import {
  executionsByWorker,
  type N8nQueue,
  type N8nQueueEnvironment,
  prepareN8nQueue,
  removeQueueEnvironment,
  startN8nQueue,
} from 'n8n-nodes-blockwire/e2e/queue.ts';
import { solanaBatchAddresses } from 'n8n-nodes-blockwire/e2e/solana-addresses.ts';
import {
  credentialImport,
  solanaBatchWorkflow,
  stableId,
  triggerNode,
  webhookTrigger,
  workflow,
} from 'n8n-nodes-blockwire/e2e/workflows.ts';
import { type EmulatorProcess, startEmulatorProcess } from './processes.ts';
import { Checks, type Figure, result, type Scale, type ScenarioResult } from './report.ts';
import { tally } from './sdk.ts';

/** Payments per round (created at once), and rounds (one block mined after each). */
const PAYMENTS: Record<Scale, { rounds: number; perRound: number }> = {
  quick: { rounds: 3, perRound: 4 },
  full: { rounds: 8, perRound: 6 },
  soak: { rounds: 8, perRound: 6 },
};
/** The emulator's delivery faults: 20 % of attempts lost, half each way. */
const DELIVERY_FAULTS = { lostRequestRate: 0.1, lostAnswerRate: 0.1 };
/** Fixtures and the fault draws; with it no delivery loses all six of its attempts. */
const EMULATOR_SEED = 16;
/** New deliveries each sent twice at the same moment, straight to the webhook processor. */
const SIMULTANEOUS: Record<Scale, number> = { quick: 12, full: 40, soak: 40 };
const STAGES: BitcoinDeliveryStage[] = ['mempool', 'in-block', 'confirmed'];
const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const API = { id: 'blockwireEmulator', name: 'Blockwire (emulator)' };
const STORE = { id: 'blockwireRepeatStore', name: 'Repeat store (n8n database)' };
const TRIGGER_WORKFLOW = 'bwQueueTrigger01';
const TRIGGER_NODE = 'Blockwire Trigger';
const TRIGGER_WEBHOOK_ID = stableId('n8n-queue', 'trigger');
/** The same copies against n8n's own store (EVM mode: it registers no stream), for comparison. */
const N8N_STORE_WORKFLOW = 'bwQueueN8nStore1';
const N8N_STORE_WEBHOOK_ID = stableId('n8n-queue', 'n8n store');
const SOLANA_WORKFLOW = 'bwQueueSolana001';
const SOLANA_PATH = 'solana-prices';
/** The n8n package, whose build the n8n processes load as a custom extension. */
const packageDir = dirname(createRequire(import.meta.url).resolve('n8n-nodes-blockwire/package.json'));
/** Installed beside it: the Blockwire Trigger (PostgreSQL), whose repeat store is exact across workers. */
const postgresPackageDir = dirname(
  createRequire(import.meta.url).resolve('n8n-nodes-blockwire-postgres/package.json'),
);

export async function n8nQueue(scale: Scale): Promise<ScenarioResult> {
  const started = performance.now();
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  let emulator: EmulatorProcess | undefined;
  let proxy: FaultProxy | undefined;
  let environment: N8nQueueEnvironment | undefined;
  let queue: N8nQueue | undefined;
  let client: Client | undefined;
  try {
    const install = await ensureN8n();
    [postgres, redis, emulator] = await Promise.all([
      startPostgres(),
      startRedis(),
      startEmulatorProcess({ seed: EMULATOR_SEED }),
    ]);
    client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls, retry: false });
    const database = { host: '127.0.0.1', port: postgres.port, database: 'n8n', user: 'postgres' };
    postgres.createDatabase(database.database);
    // With no fault rate of its own, the proxy only records what reaches the webhook processor.
    proxy = await startFaultProxy(() => environment?.webhookProcessorUrl ?? 'http://127.0.0.1:9');
    environment = await prepareN8nQueue({
      packageDir,
      morePackageDirs: [postgresPackageDir],
      database,
      redis: { host: '127.0.0.1', port: redis.port },
      workers: 2,
      webhookUrl: proxy.url,
    });
    await importWorkflows(install, environment, emulator, database);
    queue = await startN8nQueue(install, environment);
    const api = new N8nApi(queue.url);
    await api.setUp();
    const webhookPath = `/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
    const webhookUrl = `${proxy.url.replace(/\/$/, '')}${webhookPath}`;
    const requests = () => emulator!.controlCall<{ requests: EmulatorRequest[] }>('GET', '/requests');

    // Activation on the main instance: the trigger registers its stream there, once.
    await api.publicApi('POST', `/workflows/${TRIGGER_WORKFLOW}/activate`);
    const verification = await waitFor('the stream’s verification POST to be answered', async () =>
      proxy!.log.find((entry) => entry.path === webhookPath && entry.bodyBytes === 0 && entry.status !== 0),
    );
    const stream = await waitFor('the stream with its address', async () => {
      const { result: streams } = await listBitcoinStreams(client!, { limit: 100 });
      return streams.find(
        (candidate) => candidate.webhookUrl === webhookUrl && candidate.amountOfAddresses === 1,
      );
    });

    // Payments under 20 % lost deliveries: `perRound` at once, then a block; two more confirm the last.
    await emulator.controlCall('POST', '/faults', { interface: 'deliveries', ...DELIVERY_FAULTS });
    const { rounds, perRound } = PAYMENTS[scale];
    const txids: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const created = await Promise.all(
        Array.from({ length: perRound }, (_, n) =>
          emulator!.controlCall<{ txid: string }>('POST', '/bitcoin/transactions', {
            to: WATCHED,
            amountBtc: `0.00${round + 1}${n + 1}`,
          }),
        ),
      );
      txids.push(...created.map((tx) => tx.txid));
      await sleep(300); // the mempool deliveries go out before the block that holds them
      await emulator.controlCall('POST', '/bitcoin/mine', { blocks: 1 });
    }
    await emulator.controlCall('POST', '/bitcoin/mine', { blocks: 2 });
    const expected = txids.length * STAGES.length;
    const ours = (item: Record<string, unknown>) => txids.includes(item.txid as string);
    await waitFor(
      `${expected} transaction stages in n8n`,
      async () => {
        const items = (await triggerItems(api)).filter(ours);
        return new Set(items.map(unitOf)).size >= expected ? true : undefined;
      },
      180_000,
      1_000,
    );
    // Retries of deliveries whose answer was lost come up to 8 s later: wait until the line is quiet.
    await waitFor(
      'no more deliveries',
      async () => {
        const count = proxy!.log.length;
        await sleep(9_000);
        return proxy!.log.length === count ? true : undefined;
      },
      120_000,
      0,
    );
    await emulator.controlCall('DELETE', '/faults?interface=deliveries');
    const { totals: emulatorTotals } = await emulator.controlCall<{ totals: DeliveryTotals }>(
      'GET',
      '/deliveries',
    );
    const attempts = proxy.log.filter((entry) => entry.path === webhookPath && entry.bodyBytes > 0);
    const accepted = attempts.filter((entry) => entry.upstreamStatus === 200).length;
    const executions = await waitFor(
      'every accepted delivery’s execution to finish',
      async () => {
        const all = await api.executions(TRIGGER_WORKFLOW);
        return all.length >= accepted && all.every((execution) => execution.status !== 'running')
          ? all
          : undefined;
      },
      120_000,
      1_000,
    );

    // New deliveries, each posted twice at the same moment: two workers handle the copies at once.
    const template = JSON.parse(
      attempts.find((entry) => entry.upstreamStatus === 200 && payloadOf(entry).stage === 'mempool')!.body,
    ) as { transactions: Record<string, unknown>[] };
    const copies = SIMULTANEOUS[scale];
    const postgresCopies = await sendTwiceAtOnce(api, queue, {
      workflowId: TRIGGER_WORKFLOW,
      path: webhookPath,
      idOf: (item) => item.txid as string,
      bodies: Array.from({ length: copies }, () => {
        const txid = randomBytes(32).toString('hex');
        return {
          id: txid,
          body: { ...template, retries: 0, transactions: [{ ...template.transactions[0], txid }] },
        };
      }),
    });
    await api.publicApi('POST', `/workflows/${N8N_STORE_WORKFLOW}/activate`);
    // A just-activated webhook may 404 for a moment; the empty verification POST starts nothing.
    await waitFor('the EVM trigger’s webhook', async () => {
      const url = `${queue!.webhookProcessorUrl}/webhook/${N8N_STORE_WEBHOOK_ID}/webhook`;
      return (await fetch(url, { method: 'POST', body: '' })).status === 200 ? true : undefined;
    });
    const n8nStoreCopies = await sendTwiceAtOnce(api, queue, {
      workflowId: N8N_STORE_WORKFLOW,
      path: `/webhook/${N8N_STORE_WEBHOOK_ID}/webhook`,
      idOf: (item) => (item.block as { hash: string }).hash,
      bodies: Array.from({ length: copies }, (_, n) => {
        const hash = `0x${randomBytes(32).toString('hex')}`;
        return { id: hash, body: evmDelivery(String(21_000_000 + n), hash) };
      }),
    });

    // The 1,000-item Solana workflow, started by a webhook: it runs on a worker.
    await api.publicApi('POST', `/workflows/${SOLANA_WORKFLOW}/activate`);
    const solanaSince = Date.now();
    await waitFor('the Solana workflow’s webhook', async () => {
      const response = await fetch(`${queue!.webhookProcessorUrl}/webhook/${SOLANA_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return response.ok ? true : undefined;
    });
    const [solanaRun] = await waitFor(
      'the Solana workflow to finish',
      async () => {
        const runs = await api.executions(SOLANA_WORKFLOW);
        return runs.length > 0 && runs.every((run) => run.status !== 'running' && run.status !== 'new')
          ? runs
          : undefined;
      },
      120_000,
      1_000,
    );
    const solanaCalls = (await requests()).requests.filter(
      (entry) => entry.interface === 'solana' && entry.method === 'POST' && entry.receivedAt >= solanaSince,
    ).length;

    // Deactivation: the stream is deleted, once.
    const listening = listenersOf(queue);
    await api.publicApi('POST', `/workflows/${TRIGGER_WORKFLOW}/deactivate`);
    await waitFor('the stream to be deleted', async () =>
      (await requests()).requests.some((entry) => entry.operation === 'deleteBitcoinStream')
        ? true
        : undefined,
    );
    await sleep(2_000); // a second delete would come now
    const log = (await requests()).requests;
    const streamGone = await getBitcoinStream(client, { id: stream.id }).then(
      () => 200,
      (error: { status?: number }) => error.status ?? 0,
    );

    return figuresOf({
      started,
      txids,
      attempts,
      executions,
      queue,
      log,
      verificationStatus: verification.status,
      emulatorTotals,
      streamGoneStatus: streamGone,
      solana: { run: solanaRun, calls: solanaCalls, items: solanaBatchAddresses(1_000).length },
      postgresCopies,
      n8nStoreCopies,
      listening,
    });
  } finally {
    await queue?.stop();
    await client?.close();
    await proxy?.close();
    await emulator?.stop();
    await redis?.stop();
    postgres?.stop();
    removeQueueEnvironment(environment);
  }
}

/** The emulator's count of delivery attempts (GET /deliveries). */
interface DeliveryTotals {
  attempts: number;
  delivered: number;
  exhausted: number;
  lostRequest: number;
  lostAnswer: number;
}

interface EmulatorRequest {
  method: string;
  interface: string;
  path: string;
  status: number;
  receivedAt: number;
  operation?: string;
}

async function importWorkflows(
  install: Awaited<ReturnType<typeof ensureN8n>>,
  environment: N8nQueueEnvironment,
  emulator: EmulatorProcess,
  database: { host: string; port: number; database: string; user: string },
): Promise<void> {
  const files = writeImportFiles(environment.main, {
    credentials: [
      credentialImport(API, {
        apiKey: emulator.apiKey,
        webhookSecret: DEFAULT_SECRET_KEY,
        evmBaseUrl: emulator.urls.evm,
        solanaBaseUrl: emulator.urls.solana,
        streamsBaseUrl: emulator.urls.streams,
        nodeBaseUrl: emulator.urls.node,
      }),
      // The repeat store in n8n's own database (a table of its own there).
      credentialImport(STORE, { ...database, password: '', ssl: 'disable' }, 'blockwirePostgresApi'),
    ],
    workflows: [
      workflow(TRIGGER_WORKFLOW, 'Bitcoin payments (queue mode)', [
        triggerNode({
          prefix: 'CUSTOM.',
          credential: API,
          repeatStore: STORE,
          webhookId: TRIGGER_WEBHOOK_ID,
          parameters: { mode: 'bitcoin', addresses: WATCHED, stages: STAGES },
        }),
      ]),
      workflow(N8N_STORE_WORKFLOW, 'EVM deliveries (n8n’s repeat store)', [
        triggerNode({
          prefix: 'CUSTOM.',
          credential: API,
          webhookId: N8N_STORE_WEBHOOK_ID,
          parameters: { mode: 'evm' },
        }),
      ]),
      solanaBatchWorkflow('CUSTOM.', API, solanaBatchAddresses(1_000), {
        start: webhookTrigger(SOLANA_PATH),
        id: SOLANA_WORKFLOW,
      }),
    ],
  });
  for (const args of [
    ['import:credentials', `--input=${files.credentials}`],
    ['import:workflow', '--separate', `--input=${files.workflows}`],
  ]) {
    const outcome = await runN8nCli(install, environment.main, args, { timeoutMs: 180_000 });
    if (outcome.code !== 0)
      throw new Error(`n8n ${args[0]} exited ${outcome.code}:\n${outcome.stdout}\n${outcome.stderr}`);
  }
}

async function triggerItems(api: N8nApi): Promise<Record<string, unknown>[]> {
  return (await api.executions(TRIGGER_WORKFLOW)).flatMap((execution) => itemsOf(execution, TRIGGER_NODE));
}

const unitOf = (item: Record<string, unknown>) => `${item.txid} ${item.stage}`;

/** Every TCP port a process of the queue's groups listens on, with its address (from `ss`). */
function listenersOf(queue: N8nQueue): string[] {
  const groups = queue.processes.map((child) => child.pid).filter((pid): pid is number => pid !== undefined);
  const pids = new Set(
    execFileSync('ps', ['-o', 'pid=', '-g', groups.join(',')], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => [...line.matchAll(/pid=(\d+)/g)].some((match) => pids.has(match[1]!)))
    .map((line) => line.split(/\s+/)[3] ?? '');
}

type Attempt = FaultProxy['log'][number];

function payloadOf(attempt: Attempt): {
  stage: BitcoinDeliveryStage;
  txids: string[];
  retries: number;
  /** The payload without `retries`: the same for every attempt of one delivery. */
  delivery: string;
} {
  const body = JSON.parse(attempt.body) as Record<string, unknown>;
  const payload = parseBitcoinWebhook(body);
  const { retries, ...rest } = body;
  return {
    stage: bitcoinDeliveryStage(payload),
    txids: payload.transactions.map((tx) => tx.txid),
    retries: Number(retries ?? 0),
    delivery: JSON.stringify(rest),
  };
}

function perStage(): Record<string, number> {
  return Object.fromEntries(STAGES.map((stage) => [stage, 0]));
}

function figuresOf(run: {
  started: number;
  txids: string[];
  attempts: Attempt[];
  executions: Execution[];
  queue: N8nQueue;
  log: EmulatorRequest[];
  verificationStatus: number;
  emulatorTotals: DeliveryTotals;
  streamGoneStatus: number;
  solana: { run: Execution | undefined; calls: number; items: number };
  postgresCopies: CopiesOutcome;
  n8nStoreCopies: CopiesOutcome;
  listening: string[];
}): ScenarioResult {
  const { txids, attempts, executions, queue } = run;
  const ours = new Set(txids);
  // Per stage, from the attempts that reached n8n: a delivery's attempts carry `retries` 0, 1, 2…;
  // a number missing below the last one was lost before n8n, and every attempt that reached n8n
  // but the last had its answer lost (n8n answered it, the sender retried anyway).
  const sent = perStage();
  const lostBefore = perStage();
  const reached = perStage();
  const answersLost = perStage();
  const startedExecutions = perStage();
  const itemsReached = perStage();
  const deliveries = new Map<string, { stage: string; retries: number[] }>();
  for (const attempt of attempts) {
    const payload = payloadOf(attempt);
    const seen = deliveries.get(payload.delivery) ?? { stage: payload.stage, retries: [] };
    seen.retries.push(payload.retries);
    deliveries.set(payload.delivery, seen);
    tally(reached, payload.stage);
    if (attempt.upstreamStatus === 200) tally(startedExecutions, payload.stage);
    tally(itemsReached, payload.stage, payload.txids.filter((txid) => ours.has(txid)).length);
  }
  for (const { stage, retries } of deliveries.values()) {
    const made = Math.max(...retries) + 1;
    tally(sent, stage, made);
    tally(lostBefore, stage, made - retries.length);
    tally(answersLost, stage, retries.length - 1);
  }

  const ranBy = executionsByWorker(queue);
  const emittedBy = new Map<string, string[]>();
  const passedOn = perStage();
  for (const execution of executions) {
    for (const item of itemsOf(execution, TRIGGER_NODE)) {
      if (!ours.has(item.txid as string)) continue;
      tally(passedOn, item.stage as string);
      const unit = unitOf(item);
      emittedBy.set(unit, [...(emittedBy.get(unit) ?? []), ranBy.get(execution.id) ?? 'unknown']);
    }
  }
  const dropped = perStage();
  for (const stage of STAGES) dropped[stage] = itemsReached[stage]! - passedOn[stage]!;
  const expectedUnits = txids.flatMap((txid) => STAGES.map((stage) => `${txid} ${stage}`));
  const lost = expectedUnits.filter((unit) => !emittedBy.has(unit)).length;
  const doubled = [...emittedBy.values()].filter((workers) => workers.length > 1).length;

  const perWorker: Record<string, number> = {};
  for (const execution of executions) tally(perWorker, ranBy.get(execution.id) ?? 'not on a worker');
  // A repeat dropped by one worker whose first copy the other worker passed on: the store, not a
  // process's memory, knew it.
  let droppedAcrossWorkers = 0;
  let droppedLogged = 0;
  for (const worker of queue.processes.filter((child) => child.role === 'worker')) {
    for (const match of worker.output().matchAll(/dropped \d+ of \d+ items, delivered before: (.*)/g)) {
      for (const unit of match[1]!.replace(/ and \d+ more$/, '').split(', ')) {
        const [, txid, stage] = unit.split(' ');
        if (!ours.has(txid!)) continue;
        droppedLogged++;
        const first = emittedBy.get(`${txid} ${stage}`)?.[0];
        if (first && first !== worker.name) droppedAcrossWorkers++;
      }
    }
  }
  const creations = run.log.filter((entry) => entry.operation === 'createBitcoinStream').length;
  const deletions = run.log.filter((entry) => entry.operation === 'deleteBitcoinStream').length;
  // One output item per input item (paired); the ones without a price say `found: false`.
  const solanaItems = run.solana.run ? itemsOf(run.solana.run, 'Solana prices') : [];
  const solanaPriced = solanaItems.filter((item) => item.found === true);
  const offLoopback = run.listening.filter((address) => !address.startsWith('127.0.0.1:'));
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

  const figures: Record<string, Figure> = {
    n8nProcesses: Object.fromEntries(
      ['main', 'webhook', 'worker'].map((role) => [
        role,
        queue.processes.filter((child) => child.role === role).length,
      ]),
    ),
    listeningPorts: run.listening.length,
    portsOffLoopback: offLoopback.length,
    streamsCreated: creations,
    verificationAnswer: run.verificationStatus,
    transactions: txids.length,
    deliveryFaults: DELIVERY_FAULTS,
    emulatorDeliveries: { ...run.emulatorTotals },
    deliveriesSent: sent,
    lostBeforeN8n: lostBefore,
    deliveriesReceived: reached,
    answersLostAfterN8n: answersLost,
    executionsStarted: startedExecutions,
    n8nExecutionRecords: executions.length,
    executionsByProcess: perWorker,
    failedExecutions: executions.filter((execution) => execution.status !== 'success').length,
    itemsReceived: itemsReached,
    itemsPassedOn: passedOn,
    duplicatesDropped: dropped,
    duplicatesDroppedOnTheOtherWorker: droppedAcrossWorkers,
    lost,
    doubled,
    simultaneousCopies: {
      deliveries: run.postgresCopies.deliveries,
      onTwoWorkers: run.postgresCopies.onTwoWorkers,
      passedOnOnce: run.postgresCopies.once,
      doubled: run.postgresCopies.doubled,
      lost: run.postgresCopies.lost,
    },
    n8nStoreSimultaneousCopies: {
      deliveries: run.n8nStoreCopies.deliveries,
      onTwoWorkers: run.n8nStoreCopies.onTwoWorkers,
      passedOnOnce: run.n8nStoreCopies.once,
      doubled: run.n8nStoreCopies.doubled,
      lost: run.n8nStoreCopies.lost,
    },
    solanaItems: run.solana.items,
    solanaItemsOut: solanaItems.length,
    solanaHttpCalls: run.solana.calls,
    solanaRanOn: run.solana.run ? (ranBy.get(run.solana.run.id) ?? 'not on a worker') : 'did not run',
    solanaPriced: solanaPriced.length,
    streamsDeleted: deletions,
    streamAfterDeactivation: run.streamGoneStatus,
  };
  const checks = new Checks();
  checks.equal('portsOffLoopback', offLoopback.length, 0);
  checks.equal('streamsCreated', creations, 1);
  checks.equal('verificationAnswer', run.verificationStatus, 200);
  const counted = run.emulatorTotals;
  checks.that(
    'emulatorDeliveries',
    'exhausted 0; attempts, lostRequest, lostAnswer, delivered = the per-stage sums',
    counted.exhausted === 0 &&
      counted.attempts === total(sent) &&
      counted.lostRequest === total(lostBefore) &&
      counted.lostAnswer === total(answersLost) &&
      counted.delivered === deliveries.size,
  );
  checks.that('lostBeforeN8n', '>= 1 in all', total(lostBefore) >= 1);
  checks.that('answersLostAfterN8n', '>= 1 in all', total(answersLost) >= 1);
  checks.that(
    'executionsStarted',
    '= n8nExecutionRecords in all',
    total(startedExecutions) === executions.length,
  );
  checks.that(
    'executionsByProcess',
    'each worker ran some; none elsewhere',
    queue.processes
      .filter((child) => child.role === 'worker')
      .every((worker) => (perWorker[worker.name] ?? 0) > 0) && perWorker['not on a worker'] === undefined,
  );
  checks.equal('failedExecutions', figures.failedExecutions, 0);
  checks.that(
    'duplicatesDropped',
    '>= 1 in all, = logged by the workers',
    total(dropped) >= 1 && total(dropped) === droppedLogged,
  );
  checks.atLeast('duplicatesDroppedOnTheOtherWorker', droppedAcrossWorkers, 1);
  checks.equal('lost', lost, 0);
  checks.equal('doubled', doubled, 0);
  checks.that(
    'simultaneousCopies',
    'passedOnOnce = deliveries, onTwoWorkers >= 1',
    run.postgresCopies.once === run.postgresCopies.deliveries && run.postgresCopies.onTwoWorkers >= 1,
  );
  checks.equal('solanaHttpCalls', run.solana.calls, 10);
  checks.that('solanaRanOn', 'a worker', /^worker-\d+$/.test(String(figures.solanaRanOn)));
  checks.equal('solanaItemsOut', solanaItems.length, run.solana.items);
  checks.equal('solanaPriced', solanaPriced.length, 2);
  checks.equal('streamsDeleted', deletions, 1);
  checks.equal('streamAfterDeactivation', run.streamGoneStatus, 404);
  return result('n8n-queue', run.started, figures, checks);
}

interface CopiesOutcome {
  deliveries: number;
  /** Deliveries whose two copies ran on different workers. */
  onTwoWorkers: number;
  once: number;
  doubled: number;
  lost: number;
}

/**
 * Posts each body twice at the same moment to the webhook processor (signed with the emulator's
 * secret), waits for every execution, and counts how often each delivery reached the workflow.
 */
async function sendTwiceAtOnce(
  api: N8nApi,
  queue: N8nQueue,
  run: {
    workflowId: string;
    path: string;
    idOf: (item: Record<string, unknown>) => string;
    bodies: { id: string; body: unknown }[];
  },
): Promise<CopiesOutcome> {
  const before = (await api.executions(run.workflowId)).length;
  const statuses = await Promise.all(
    run.bodies.flatMap(({ body }) => {
      const text = JSON.stringify(body);
      const post = async () =>
        (
          await fetch(`${queue.webhookProcessorUrl}${run.path}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-signature': await signBody(text, DEFAULT_SECRET_KEY),
            },
            body: text,
          })
        ).status;
      return [post(), post()];
    }),
  );
  const notAccepted = statuses.filter((status) => status !== 200).length;
  if (notAccepted > 0)
    throw new Error(`${notAccepted} simultaneous copies were not answered 200: ${statuses}`);
  const executions = await waitFor(
    'the executions of the simultaneous copies',
    async () => {
      const all = await api.executions(run.workflowId);
      return all.length >= before + statuses.length &&
        all.every((execution) => execution.status !== 'running')
        ? all.slice(before)
        : undefined;
    },
    120_000,
    1_000,
  );
  const ranBy = executionsByWorker(queue);
  const ids = new Set(run.bodies.map((entry) => entry.id));
  // Who handled each copy: the worker whose execution passed it on (n8n's records), and the worker
  // that dropped it (its log line names the delivery key, which holds the id).
  const handledBy = new Map<string, string[]>();
  const note = (id: string, worker: string) => handledBy.set(id, [...(handledBy.get(id) ?? []), worker]);
  const emitted: Record<string, number> = {};
  for (const execution of executions) {
    for (const item of itemsOf(execution, TRIGGER_NODE)) {
      const id = run.idOf(item);
      tally(emitted, id);
      note(id, ranBy.get(execution.id) ?? 'unknown');
    }
  }
  for (const worker of queue.processes.filter((child) => child.role === 'worker')) {
    for (const match of worker.output().matchAll(/dropped \d+ of \d+ items, delivered before: (.*)/g)) {
      for (const id of ids) if (match[1]!.includes(id)) note(id, worker.name);
    }
  }
  const counts = run.bodies.map((entry) => emitted[entry.id] ?? 0);
  return {
    deliveries: run.bodies.length,
    onTwoWorkers: [...handledBy.values()].filter((workers) => new Set(workers).size > 1).length,
    once: counts.filter((count) => count === 1).length,
    doubled: counts.filter((count) => count > 1).length,
    lost: counts.filter((count) => count === 0).length,
  };
}

/** An EVM stream delivery of one block, the shape the service posts. */
function evmDelivery(blockNumber: string, hash: string) {
  return {
    confirmed: false,
    chainId: '0x1',
    streamId: 'b3e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    tag: 'queue',
    retries: 0,
    block: { number: blockNumber, hash, timestamp: '1731024000' },
    logs: [{ address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', topic0: '0xddf2' }],
    txs: [],
  };
}
