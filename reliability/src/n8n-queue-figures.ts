/** The n8n-queue scenario's figures and checks, worked out from what the run recorded. */
import type { DeliveryTotals } from '@blockwire/emulator';
import { type BitcoinDeliveryStage, bitcoinDeliveryStage, parseBitcoinWebhook } from '@blockwire/streams';
import type { FaultProxy } from 'n8n-nodes-blockwire/e2e/fault-proxy.ts';
import { type Execution, itemsOf } from 'n8n-nodes-blockwire/e2e/n8n.ts';
import { executionsByWorker, type N8nQueue } from 'n8n-nodes-blockwire/e2e/queue.ts';
import type { CopiesOutcome } from './n8n-queue-copies.ts';
import { STAGES, TRIGGER_NODE, unitOf } from './n8n-queue-workflows.ts';
import { Checks, type Figure, result, type ScenarioResult } from './report.ts';
import { tally } from './sdk.ts';

export interface EmulatorRequest {
  method: string;
  interface: string;
  path: string;
  status: number;
  receivedAt: number;
  operation?: string;
}

type Attempt = FaultProxy['log'][number];

export function payloadOf(attempt: Attempt): {
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

export function figuresOf(run: {
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
  deliveryFaults: { lostRequestRate: number; lostAnswerRate: number };
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
    deliveryFaults: run.deliveryFaults,
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
