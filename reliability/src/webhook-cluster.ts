/**
 * Scenario `webhook-cluster`: four webhook receivers behind one port on one PostgreSQL — a
 * node:cluster primary and four workers, each `createWebhookHandler` over `createPostgresTxStore`
 * (cluster-receiver.ts) — on a PostgreSQL cluster of its own (Debian's package, a temp folder, a
 * free port). Real Bitcoin deliveries recorded from the emulator's simulator, replicated under
 * new txids up to the count and signed as the service signs, are sent the way a bad day would:
 * 30 % of the sends are duplicates sent at the same moment as their original over connections
 * that reach other workers, shuffled (confirmed before in-block), and two workers are SIGKILLed
 * mid-run (the primary forks them again). Every 200'd delivery must end in the store and in the
 * callbacks' reports, each txid at its true stage, each stage change reported once.
 *
 * Two more runs of the same setup break connections instead of processes, while every receiver
 * lives: `webhook-cluster-idle` (the server ends every session idle for 300 ms:
 * `idle_session_timeout`) and `webhook-cluster-restart` (PostgreSQL restarted twice mid-run,
 * `pg_ctl restart -m fast`).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BitcoinDeliveryStage, bitcoinDeliveryStage, signBody } from '@blockwire/streams';
// The services module alone: Node runs it as TypeScript (the package index needs vitest's resolver).
import { type PostgresServer, startPostgres } from '@blockwire/testing/services';
import pg from 'pg';
import { Client } from 'undici';
import { type Child, scriptPath, startChild } from './processes.ts';
import { groundTruth, type Payload, RANK, recordDeliveries, seeded } from './recorded-deliveries.ts';
import { Checks, type Figure, result, type Scale, type ScenarioResult } from './report.ts';

/** What one run of the cluster does to it, and the bounds of its own it is held to. */
interface ClusterPlan {
  id: 'webhook-cluster' | 'webhook-cluster-idle' | 'webhook-cluster-restart';
  sends: Record<Scale, number>;
  /** Recorded from the emulator, then replicated under new txids up to the count. */
  recorded: Record<Scale, number>;
  workers: number;
  /** Workers SIGKILLed mid-run (forked again by the primary). */
  kills: number;
  /** `pg_ctl restart -m fast` mid-run. */
  restarts: number;
  /** Server settings for the run. */
  settings?: Record<string, string | number>;
  /** How often each receiver looks for deliveries left unfinished (default 500 ms). */
  resumeEveryMs?: number;
  /** The receivers' pools close connections idle this long (pg's default: 10 s). */
  poolIdleTimeoutMs?: number;
  /** A pause of the sender every this many units: quiet moments, as between real deliveries. */
  pause?: { everyUnits: number; ms: number };
  bounds(checks: Checks, figures: Record<string, Figure>): void;
}

const PLANS: Record<ClusterPlan['id'], ClusterPlan> = {
  // The counts in `npm test` too: the whole run takes about 75 s on 2 cores.
  'webhook-cluster': {
    id: 'webhook-cluster',
    sends: { quick: 20_000, full: 20_000, soak: 60_000 },
    recorded: { quick: 1_500, full: 1_500, soak: 3_000 },
    workers: 4,
    kills: 2,
    restarts: 0,
    bounds(checks, figures) {
      checks.equal('callbacksRunAgainWithoutKill', figures.callbacksRunAgainWithoutKill as number, 0);
      checks.equal('receiverErrors', figures.receiverErrors as number, 0);
    },
  },
  // Receivers that live while the server ends their idle connections: none may look dead.
  'webhook-cluster-idle': {
    id: 'webhook-cluster-idle',
    sends: { quick: 1_200, full: 5_000, soak: 20_000 },
    recorded: { quick: 600, full: 1_500, soak: 3_000 },
    workers: 3,
    kills: 0,
    restarts: 0,
    settings: { idle_session_timeout: '300ms' },
    // Receivers idle longer than the timeout between their looks and between bursts of deliveries.
    resumeEveryMs: 2_000,
    pause: { everyUnits: 60, ms: 700 },
    // Below the server's timeout, as the streams README advises: else a callback may be handed a
    // connection the server is ending that very moment, fail, and run again.
    poolIdleTimeoutMs: 200,
    bounds(checks, figures) {
      checks.atLeast('txids', figures.txids as number, 800);
      // The server did run with the timeout: else this run proves nothing.
      checks.equal('serverIdleSessionTimeout', figures.serverIdleSessionTimeout, '300ms');
      checks.atMost('callbacksRunAgainPct', figures.callbacksRunAgainPct as number, 1, ' %');
    },
  },
  // Every session ends at once, twice; the receivers go on through it.
  'webhook-cluster-restart': {
    id: 'webhook-cluster-restart',
    sends: { quick: 1_200, full: 5_000, soak: 20_000 },
    recorded: { quick: 600, full: 1_500, soak: 3_000 },
    workers: 3,
    kills: 0,
    restarts: 2,
    bounds(checks, figures) {
      checks.equal('postgresRestarts', figures.postgresRestarts as number, 2);
    },
  },
};

const DUPLICATE_SHARE = 0.3;
/** Connections the sender keeps; the primary hands them to the workers in turn. */
const LANES = 16;
/** Deliveries (each with its duplicates) in flight at once. */
const CONCURRENCY = 12;
const SHUFFLE_WINDOW = 200;
const ANSWER_TIMEOUT_MS = 10_000;
/** Within the test's own timeout, so a stall ends with what the database and the workers were doing. */
const SEND_DEADLINE_MS = 300_000;
const SECRET = 'reliability-cluster-secret';
const SCHEMA = 'blockwire';
const REPORTS_TABLE = 'cluster_reports';
/** The least share of duplicate groups that must have reached two workers or more. */
const MIN_SPREAD_PCT = 80;

interface Send {
  body: string;
  signature: string;
  stage: BitcoinDeliveryStage;
  txids: string[];
  status?: number;
  /** The pid of the worker that gave the final answer. */
  worker?: number;
}

/** A genuine delivery and its duplicates, sent at the same moment. */
type Unit = Send[];

export const webhookCluster = (scale: Scale) => runCluster(PLANS['webhook-cluster'], scale);
export const webhookClusterIdle = (scale: Scale) => runCluster(PLANS['webhook-cluster-idle'], scale);
export const webhookClusterRestart = (scale: Scale) => runCluster(PLANS['webhook-cluster-restart'], scale);

async function runCluster(plan: ClusterPlan, scale: Scale): Promise<ScenarioResult> {
  const started = performance.now();
  const total = plan.sends[scale];
  const workDir = mkdtempSync(join(tmpdir(), 'blockwire-webhook-cluster-'));
  let server: PostgresServer | undefined;
  let cluster: Child<{ port: number; workers: number[] }> | undefined;
  let admin: pg.Pool | undefined;
  const lanes: Client[] = [];
  try {
    server = await startPostgres(plan.settings ? { settings: plan.settings } : {});
    const url = server.createDatabase('webhook_cluster');
    admin = new pg.Pool({ connectionString: url, max: 2 });
    admin.on('error', () => undefined); // idle connections the server ends (idle timeout, restart)
    await admin.query(`CREATE SCHEMA ${SCHEMA}`);
    await admin.query(
      `CREATE TABLE ${SCHEMA}.${REPORTS_TABLE} (delivery_id bigint NOT NULL, txid text NOT NULL,
         from_stage text, to_stage text NOT NULL, worker integer NOT NULL)`,
    );

    const recordStarted = performance.now();
    const recorded = await recordDeliveries(plan.recorded[scale], { secret: SECRET, tag: plan.id });
    const recordMs = performance.now() - recordStarted;
    const genuine = replicate(recorded, Math.round(total * (1 - DUPLICATE_SHARE)));
    const truth = groundTruth(genuine);
    const units = await unitsOf(genuine, total - genuine.length);
    const sends = units.flat();

    cluster = await startChild<{ port: number; workers: number[] }>(
      [
        scriptPath('cluster-receiver.ts'),
        url,
        SCHEMA,
        REPORTS_TABLE,
        workDir,
        SECRET,
        String(plan.workers),
        String(plan.resumeEveryMs ?? 500),
        ...(plan.poolIdleTimeoutMs === undefined ? [] : [String(plan.poolIdleTimeoutMs)]),
      ],
      { readyTimeoutMs: 60_000 },
    );
    const origin = `http://127.0.0.1:${cluster.ready.port}`;
    for (let i = 0; i < LANES; i++) {
      // Like the service, no answer within a bound counts as none: a connection the primary was
      // handing to a worker as it was killed may never be answered nor closed.
      lanes.push(
        new Client(origin, {
          pipelining: 1,
          keepAliveTimeout: 60_000,
          connectTimeout: ANSWER_TIMEOUT_MS,
          headersTimeout: ANSWER_TIMEOUT_MS,
          bodyTimeout: ANSWER_TIMEOUT_MS,
        }),
      );
    }
    const laneWorker: (number | undefined)[] = Array.from({ length: LANES }, () => undefined);

    /** Unit indexes spread evenly over the run, one per event. */
    const spread = (events: number) =>
      new Set(Array.from({ length: events }, (_, k) => Math.floor(((k + 1) * units.length) / (events + 1))));
    const killAt = spread(plan.kills);
    const restartAt = spread(plan.restarts);
    const killed: number[] = [];
    const restarting: Promise<void>[] = [];
    let attempts = 0;
    let cursor = 0;
    const deadline = Date.now() + SEND_DEADLINE_MS;

    /** Lanes for a group: each on a worker none of the others is known to be on, when one is free. */
    const lanesFor = (count: number): number[] => {
      const chosen: number[] = [];
      const workers = new Set<number>();
      for (let tries = 0; tries < LANES && chosen.length < count; tries++) {
        const lane = cursor++ % LANES;
        const worker = laneWorker[lane];
        if (worker !== undefined && workers.has(worker)) continue;
        chosen.push(lane);
        if (worker !== undefined) workers.add(worker);
      }
      while (chosen.length < count) chosen.push(cursor++ % LANES);
      return chosen;
    };

    const deliver = async (send: Send, firstLane: number) => {
      let lane = firstLane;
      for (;;) {
        if (Date.now() > deadline) throw await stalled(admin!, cluster!);
        attempts++;
        const answer = await post(lanes[lane]!, send).catch(() => undefined);
        if (answer) laneWorker[lane] = answer.worker;
        // Like the service: no answer or a 5xx is delivered again; any other answer is final.
        if (answer && answer.status < 500) {
          send.status = answer.status;
          send.worker = answer.worker;
          return;
        }
        laneWorker[lane] = undefined;
        lane = cursor++ % LANES;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    let next = 0;
    let quiet: Promise<unknown> = Promise.resolve();
    const sendStarted = performance.now();
    const sender = async () => {
      while (next < units.length) {
        await quiet;
        if (next >= units.length) break;
        const index = next++;
        if (killAt.has(index)) killed.push(killOne(cluster!, killed));
        if (plan.pause && index > 0 && index % plan.pause.everyUnits === 0) {
          quiet = new Promise((resolve) => setTimeout(resolve, plan.pause!.ms)); // every sender waits
        }
        // Not awaited: sends go on while the server is down (answered 500, sent again).
        if (restartAt.has(index)) restarting.push(server!.restart());
        const unit = units[index]!;
        const chosen = lanesFor(unit.length);
        await Promise.all(unit.map((send, i) => deliver(send, chosen[i]!)));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    await Promise.all(restarting);
    const sendMs = performance.now() - sendStarted;

    // The deliveries the killed workers held are finished by the others (at their start, and
    // every resumeEveryMs): wait for the table to empty.
    const drainStarted = performance.now();
    const unsettled = async () =>
      Number(
        (await admin!.query(`SELECT count(*) AS n FROM ${SCHEMA}.blockwire_bitcoin_deliveries`)).rows[0].n,
      );
    while ((await unsettled()) > 0 && performance.now() - drainStarted < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const drainMs = performance.now() - drainStarted;
    await Promise.all(lanes.splice(0).map((lane) => lane.close()));
    const output = cluster.output();
    const exit = await cluster.stop(30_000);
    cluster = undefined;

    const stored = new Map<string, BitcoinDeliveryStage>();
    for (const row of (await admin.query(`SELECT txid, stage FROM ${SCHEMA}.blockwire_bitcoin_txs`)).rows) {
      stored.set(row.txid, row.stage);
    }
    const reports = (
      await admin.query(
        `SELECT delivery_id::text AS delivery, txid, from_stage AS "from", to_stage AS "to", worker FROM ${SCHEMA}.${REPORTS_TABLE}`,
      )
    ).rows as {
      delivery: string;
      txid: string;
      from: BitcoinDeliveryStage | null;
      to: BitcoinDeliveryStage;
      worker: number;
    }[];
    const leftUnsettled = await unsettled();
    const serverIdleSessionTimeout = String(
      (await admin.query('SHOW idle_session_timeout')).rows[0].idle_session_timeout,
    );
    const figures = judge({
      sends,
      units,
      truth,
      stored,
      reports,
      runs: callbackRuns(workDir),
      killed,
      output,
    });
    const onTwoOrMore = figures.duplicatesOnTwoOrMoreWorkersPct as number;
    const all: Record<string, Figure> = {
      sends: sends.length,
      genuine: genuine.length,
      duplicates: sends.length - genuine.length,
      recordedFromEmulator: recorded.length,
      recordSeconds: Number((recordMs / 1000).toFixed(1)),
      workers: plan.workers,
      serverIdleSessionTimeout,
      ...(plan.poolIdleTimeoutMs === undefined ? {} : { poolIdleTimeoutMs: plan.poolIdleTimeoutMs }),
      workerKills: killed.length,
      postgresRestarts: restarting.length,
      workersForkedAgain: figures.workersForkedAgain as number,
      deliveryAttempts: attempts,
      ...figures,
      unsettledDeliveries: leftUnsettled,
      drainAfterSendsMs: Math.round(drainMs),
      sendSeconds: Number((sendMs / 1000).toFixed(1)),
      deliveriesPerSecond: Math.round(sends.length / (sendMs / 1000)),
      clusterExit: String(exit),
    };
    const checks = new Checks();
    checks.atLeast('sends', sends.length, total);
    checks.equal('workerKills', killed.length, plan.kills);
    // Receivers only die when killed: a broken connection must not take one down.
    checks.equal('workersForkedAgain', figures.workersForkedAgain as number, plan.kills);
    checks.atLeast('duplicatesOnTwoOrMoreWorkersPct', onTwoOrMore, MIN_SPREAD_PCT, ' %');
    checks.equal('answered200', figures.answered200, sends.length);
    checks.equal('wrongFinalStagesStored', figures.wrongFinalStagesStored, 0);
    checks.equal('wrongFinalStagesReported', figures.wrongFinalStagesReported, 0);
    checks.equal('stageChangesReportedTwice', figures.stageChangesReportedTwice, 0);
    checks.equal('changesWithWrongFrom', figures.changesWithWrongFrom, 0);
    checks.equal('acceptedLost', figures.acceptedLost, 0);
    checks.equal('unsettledDeliveries', leftUnsettled, 0);
    plan.bounds(checks, all);
    checks.equal('clusterExit', String(exit), '0');
    return result(plan.id, started, all, checks);
  } finally {
    await Promise.allSettled(lanes.map((lane) => lane.destroy()));
    await cluster?.kill();
    await admin?.end().catch(() => undefined);
    server?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The error of a run whose sends stalled: what each session waits on, and what the workers said. */
async function stalled(admin: pg.Pool, cluster: Child<{ port: number; workers: number[] }>): Promise<Error> {
  const sessions = await admin
    .query(
      `SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blocked_by,
              left(query, 120) AS query FROM pg_stat_activity WHERE datname = current_database()`,
    )
    .then(
      ({ rows }) => rows.map((row) => JSON.stringify(row)).join('\n'),
      (error: Error) => error.message,
    );
  return new Error(
    `webhook cluster: the sends did not finish in time\nsessions:\n${sessions}\nworkers:\n${cluster.output().slice(-4_000)}`,
  );
}

/** SIGKILLs a live worker not killed before; returns its pid. */
function killOne(cluster: Child<{ port: number; workers: number[] }>, killed: number[]): number {
  const live = liveWorkers(cluster);
  const target = live.find((pid) => !killed.includes(pid));
  if (target === undefined) throw new Error('webhook-cluster: no live worker left to kill');
  process.kill(target, 'SIGKILL');
  return target;
}

/** The workers alive now, from the primary's ready line and its exited/forked lines since. */
function liveWorkers(cluster: Child<{ port: number; workers: number[] }>): number[] {
  const live = new Set(cluster.ready.workers);
  for (const event of clusterEvents(cluster.output())) {
    if (event.exited !== undefined) live.delete(event.exited);
    if (event.forked !== undefined) live.add(event.forked);
  }
  return [...live];
}

function clusterEvents(output: string): { exited?: number; forked?: number }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { exited?: number; forked?: number });
}

async function post(lane: Client, send: Send): Promise<{ status: number; worker: number }> {
  const response = await lane.request({
    path: '/webhooks',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': send.signature },
    body: send.body,
  });
  await response.body.dump();
  return { status: response.statusCode, worker: Number(response.headers['x-worker']) };
}

/**
 * `count` deliveries from the recorded ones: the recording itself, then copies of it under new
 * txids (a hash of the copy and the txid), copy after copy interleaved delivery by delivery, so
 * each copy is a stream of its own with the recording's lifecycles, evictions and blocks.
 */
function replicate(recorded: Payload[], count: number): Payload[] {
  const copies = Math.ceil(count / recorded.length);
  const rename = (copy: number, txid: string) =>
    copy === 0 ? txid : createHash('sha256').update(`${copy}:${txid}`).digest('hex');
  const out: Payload[] = [];
  for (let i = 0; i < recorded.length && out.length < count; i++) {
    for (let copy = 0; copy < copies && out.length < count; copy++) {
      const payload = recorded[i]!;
      out.push({
        ...payload,
        transactions: payload.transactions.map((tx) => ({ ...tx, txid: rename(copy, tx.txid) })),
      });
    }
  }
  return out;
}

/** Each genuine delivery with its duplicates (the service's retries, re-signed), shuffled within windows. */
async function unitsOf(genuine: Payload[], duplicates: number): Promise<Unit[]> {
  const random = seeded(16);
  const sendOf = async (payload: Payload): Promise<Send> => {
    const body = JSON.stringify(payload);
    return {
      body,
      signature: await signBody(body, SECRET),
      stage: bitcoinDeliveryStage(payload),
      txids: payload.transactions.map((tx) => tx.txid),
    };
  };
  const units: Unit[] = [];
  for (const payload of genuine) units.push([await sendOf(payload)]);
  for (let i = 0; i < duplicates; i++) {
    const unit = units[Math.floor(random() * units.length)]!;
    const original = JSON.parse(unit[0]!.body) as Payload;
    unit.push(await sendOf({ ...original, retries: (original.retries ?? 0) + unit.length }));
  }
  for (let from = 0; from < units.length; from += SHUFFLE_WINDOW) {
    const to = Math.min(units.length, from + SHUFFLE_WINDOW);
    for (let i = to - 1; i > from; i--) {
      const j = from + Math.floor(random() * (i - from + 1));
      [units[i], units[j]] = [units[j]!, units[i]!];
    }
  }
  return units;
}

/** The workers each delivery's callback started on, one entry per start, over every worker that ran. */
function callbackRuns(dir: string): Map<string, number[]> {
  const runs = new Map<string, number[]>();
  for (const file of readdirSync(dir)) {
    const pid = /^runs-(\d+)\.log$/.exec(file)?.[1];
    if (!pid) continue;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const id = line.split(' ')[0];
      if (id) runs.set(id, [...(runs.get(id) ?? []), Number(pid)]);
    }
  }
  return runs;
}

function judge(run: {
  sends: Send[];
  units: Unit[];
  truth: Map<string, BitcoinDeliveryStage>;
  stored: Map<string, BitcoinDeliveryStage>;
  reports: { delivery: string; txid: string; from: BitcoinDeliveryStage | null; to: BitcoinDeliveryStage }[];
  runs: Map<string, number[]>;
  killed: number[];
  output: string;
}): Record<string, Figure> {
  const { sends, units, truth, stored, reports, runs, killed, output } = run;
  const byTxid = new Map<string, typeof reports>();
  for (const report of reports) byTxid.set(report.txid, [...(byTxid.get(report.txid) ?? []), report]);

  let reportedTwice = 0;
  let wrongFrom = 0;
  let wrongReported = 0;
  for (const [txid, stage] of truth) {
    const told = (byTxid.get(txid) ?? []).sort((a, b) => RANK[a.to] - RANK[b.to]);
    for (let k = 0; k < told.length; k++) {
      if (k > 0 && told[k]!.to === told[k - 1]!.to) reportedTwice++;
      else if (told[k]!.from !== (k === 0 ? null : told[k - 1]!.to)) wrongFrom++;
    }
    if (told.at(-1)?.to !== stage) wrongReported++;
  }
  const reportedStage = (txid: string) =>
    byTxid.get(txid)?.reduce((best, r) => Math.max(best, RANK[r.to]), -1) ?? -1;
  let lost = 0;
  for (const send of sends) {
    if (send.status !== 200) continue;
    for (const txid of send.txids) {
      const stage = stored.get(txid);
      if (!stage || RANK[stage] < RANK[send.stage] || reportedStage(txid) < RANK[send.stage]) lost++;
    }
  }
  const runAgain = [...runs.values()].filter((pids) => pids.length > 1).length;
  const groups = units.filter((unit) => unit.length > 1);
  const spread = groups.filter((unit) => new Set(unit.map((send) => send.worker)).size > 1).length;
  const finals: Record<string, number> = {};
  for (const stage of truth.values()) finals[stage] = (finals[stage] ?? 0) + 1;
  const statuses: Record<string, number> = {};
  for (const send of sends) statuses[String(send.status)] = (statuses[String(send.status)] ?? 0) + 1;
  const perWorker: Record<string, number> = {};
  for (const send of sends) perWorker[String(send.worker)] = (perWorker[String(send.worker)] ?? 0) + 1;
  return {
    answered200: statuses['200'] ?? 0,
    statuses,
    answersPerWorker: perWorker,
    duplicateGroups: groups.length,
    duplicatesOnTwoOrMoreWorkersPct:
      groups.length === 0 ? 0 : Number(((100 * spread) / groups.length).toFixed(1)),
    txids: truth.size,
    trueFinalStages: finals,
    stageChangesReported: reports.length,
    wrongFinalStagesStored: [...truth].filter(([txid, stage]) => stored.get(txid) !== stage).length,
    wrongFinalStagesReported: wrongReported,
    stageChangesReportedTwice: reportedTwice,
    changesWithWrongFrom: wrongFrom,
    acceptedLost: lost,
    // A worker killed after a callback started and before its transaction committed: the callback
    // ran again elsewhere, and its first run's writes were rolled back with the settle.
    callbacksRunAgain: runAgain,
    callbacksRun: runs.size,
    callbacksRunAgainPct: runs.size === 0 ? 0 : Number(((100 * runAgain) / runs.size).toFixed(2)),
    // …which must never happen without a kill.
    callbacksRunAgainWithoutKill: [...runs.values()].filter(
      (pids) => pids.length > 1 && !pids.some((pid) => killed.includes(pid)),
    ).length,
    workersForkedAgain: clusterEvents(output).filter((event) => event.forked !== undefined).length,
    // How each worker that exited went, and what its process said last (for a death nobody caused).
    workerExits: JSON.stringify(clusterEvents(output).filter((event) => event.exited !== undefined)),
    workerLastWords: output
      .split('\n')
      .filter(
        (line) =>
          /Error|Unhandled|^\s+at /.test(line) && !line.startsWith('receiver ') && !line.startsWith('pool '),
      )
      .slice(0, 12)
      .join('\n'),
    receiverErrors: output.split('\n').filter((line) => line.startsWith('receiver ')).length,
    // Idle connections of the workers' pools the server ended (told to the pools' `error` listeners).
    idleConnectionsEnded: output.split('\n').filter((line) => line.startsWith('pool ')).length,
  };
}
