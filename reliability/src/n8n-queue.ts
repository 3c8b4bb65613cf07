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
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type Client, createClient } from '@blockwire/core';
import type { DeliveryTotals } from '@blockwire/emulator';
import { getBitcoinStream, listBitcoinStreams } from '@blockwire/streams';
import {
  type PostgresServer,
  type RedisServer,
  startPostgres,
  startRedis,
} from '@blockwire/testing/services';
import { type FaultProxy, startFaultProxy } from 'n8n-nodes-blockwire/e2e/fault-proxy.ts';
import { ensureN8n } from 'n8n-nodes-blockwire/e2e/install-n8n.ts';
import { N8nApi, sleep, waitFor } from 'n8n-nodes-blockwire/e2e/n8n.ts';
import {
  type N8nQueue,
  type N8nQueueEnvironment,
  prepareN8nQueue,
  removeQueueEnvironment,
  startN8nQueue,
} from 'n8n-nodes-blockwire/e2e/queue.ts';
import { solanaBatchAddresses } from 'n8n-nodes-blockwire/e2e/solana-addresses.ts';
import { evmDelivery, sendTwiceAtOnce } from './n8n-queue-copies.ts';
import { type EmulatorRequest, figuresOf, payloadOf } from './n8n-queue-figures.ts';
import { listenersOf } from './n8n-queue-ports.ts';
import {
  importWorkflows,
  N8N_STORE_WEBHOOK_ID,
  N8N_STORE_WORKFLOW,
  SOLANA_PATH,
  SOLANA_WORKFLOW,
  STAGES,
  TRIGGER_WEBHOOK_ID,
  TRIGGER_WORKFLOW,
  triggerItems,
  unitOf,
  WATCHED,
} from './n8n-queue-workflows.ts';
import { type EmulatorProcess, startEmulatorProcess } from './processes.ts';
import type { Scale, ScenarioResult } from './report.ts';

// The scenario's other jobs live beside it: the workflows it imports (n8n-queue-workflows), the
// simultaneous copies (n8n-queue-copies), the listening ports (n8n-queue-ports) and the figures and
// checks (n8n-queue-figures). This file runs the scenario and collects what they need.

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
      deliveryFaults: DELIVERY_FAULTS,
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
