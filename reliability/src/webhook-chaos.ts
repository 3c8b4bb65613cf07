/**
 * Scenario `webhook-chaos`: real Bitcoin deliveries — recorded from the emulator's simulator
 * (mempool → in block → confirmed, evictions, transactions first seen in a block) — sent to the
 * receiver of the streams README (createWebhookHandler, the SQLite tracker, node:http) in its own
 * process, the way a bad day would: duplicates re-signed as retries, shuffled (confirmed before
 * in-block), forged signatures, malformed JSON, oversized bodies, and the receiver SIGKILLed and
 * restarted twice mid-run. The store and the callbacks must end with each txid at its true stage.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BitcoinDeliveryStage,
  bitcoinDeliveryStage,
  createSqliteTxStore,
  signBody,
} from '@blockwire/streams';
import { keccak } from 'hash-wasm';
import { type Child, scriptPath, startChild } from './processes.ts';
import { groundTruth, type Payload, RANK, recordDeliveries, seeded } from './recorded-deliveries.ts';
import { Checks, type Figure, result, type Scale, type ScenarioResult } from './report.ts';
import { tally } from './sdk.ts';

const SENDS: Record<Scale, number> = { quick: 2_500, full: 10_000, soak: 10_000 };
/** Shares of all sends, as the issue writes them; the rest are the genuine deliveries, once each. */
const SHARES = { duplicate: 0.3, forged: 0.05, malformed: 0.01, oversized: 0.01 };
const MAX_BODY_BYTES = 256 * 1024;
const SENDER_CONCURRENCY = 8;
const SHUFFLE_WINDOW = 200;
const SECRET = 'reliability-webhook-secret';

type SendKind = 'genuine' | 'duplicate' | 'forged' | 'malformed' | 'oversized';
interface Send {
  kind: SendKind;
  body: string;
  signature: string;
  /** For genuine deliveries and duplicates: the stage and txids it carries. */
  stage?: BitcoinDeliveryStage;
  txids?: string[];
  status?: number;
}

export async function webhookChaos(scale: Scale): Promise<ScenarioResult> {
  const started = performance.now();
  const total = SENDS[scale];
  const genuineCount = Math.round(
    total * (1 - SHARES.duplicate - SHARES.forged - SHARES.malformed - SHARES.oversized),
  );
  const workDir = mkdtempSync(join(tmpdir(), 'blockwire-webhook-chaos-'));
  let receiver: Child<{ port: number }> | undefined;
  try {
    const recorded = await recordDeliveries(genuineCount, { secret: SECRET, tag: 'webhook-chaos' });
    const truth = groundTruth(recorded);
    const sends = await chaosOf(recorded, total);
    const database = join(workDir, 'txs.sqlite');
    const changesLog = join(workDir, 'changes.jsonl');
    const start = () =>
      startChild<{ port: number }>([
        scriptPath('receiver-process.ts'),
        database,
        changesLog,
        SECRET,
        String(MAX_BODY_BYTES),
      ]);
    receiver = await start();
    let url = `http://127.0.0.1:${receiver.ready.port}/webhooks`;
    let restarting: Promise<void> | undefined;
    const killAndRestart = async () => {
      await receiver!.kill();
      receiver = await start();
      url = `http://127.0.0.1:${receiver.ready.port}/webhooks`;
    };
    const killAt = new Set([Math.floor(sends.length / 3), Math.floor((2 * sends.length) / 3)]);
    let kills = 0;
    let deliveryAttempts = 0;
    const deadline = Date.now() + 240_000;
    let next = 0;
    const sender = async () => {
      while (next < sends.length) {
        const index = next++;
        if (killAt.has(index)) {
          kills++;
          // Mid-run: the other senders' requests are in flight when the process dies.
          restarting = killAndRestart();
        }
        const send = sends[index]!;
        for (;;) {
          if (Date.now() > deadline) throw new Error('webhook-chaos: the sends did not finish in time');
          if (restarting) await restarting;
          deliveryAttempts++;
          const status = await post(url, send).catch(() => undefined);
          // Like the service: no answer or a 5xx is delivered again; any other answer is final.
          if (status !== undefined && status < 500) {
            send.status = status;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    await Promise.all(Array.from({ length: SENDER_CONCURRENCY }, sender));
    const receiverOutput = receiver.output();
    const stopped = await receiver.stop(30_000);
    receiver = undefined;

    const store = createSqliteTxStore(database);
    const stored = new Map<string, BitcoinDeliveryStage | undefined>();
    for (const txid of truth.keys()) stored.set(txid, store.get(txid)?.stage);
    const forgedStored = sends
      .filter((send) => send.kind === 'forged')
      .flatMap((send) => send.txids ?? [])
      .filter((txid) => store.get(txid) !== undefined).length;
    // A settled delivery is deleted: what is left was never finished.
    const pending = store.listDeliveries().length;
    store.close();
    const reported = new Map<string, BitcoinDeliveryStage>();
    for (const line of readFileSync(changesLog, 'utf8').split('\n')) {
      if (!line) continue;
      const { txid, to } = JSON.parse(line) as { txid: string; to: BitcoinDeliveryStage };
      if (RANK[to] > RANK[reported.get(txid) ?? 'mempool'] || !reported.has(txid)) reported.set(txid, to);
    }

    const statuses: Record<string, Record<string, number>> = {};
    for (const send of sends) {
      statuses[send.kind] ??= {};
      tally(statuses[send.kind]!, String(send.status));
    }
    const countOf = (kind: SendKind) => sends.filter((send) => send.kind === kind).length;
    const answered = (kind: SendKind, status: number) => statuses[kind]?.[String(status)] ?? 0;
    let lost = 0;
    for (const send of sends) {
      if (send.status !== 200 || !send.stage) continue;
      for (const txid of send.txids ?? []) {
        const stage = stored.get(txid);
        if (!stage || RANK[stage] < RANK[send.stage]) lost++;
      }
    }
    const txids = truth.size;
    const storedRight = [...truth].filter(([txid, stage]) => stored.get(txid) === stage).length;
    const reportedRight = [...truth].filter(([txid, stage]) => reported.get(txid) === stage).length;
    const finals: Record<string, number> = {};
    for (const stage of truth.values()) tally(finals, stage);

    const figures: Record<string, Figure> = {
      sends: sends.length,
      genuine: countOf('genuine'),
      duplicates: countOf('duplicate'),
      forged: countOf('forged'),
      malformed: countOf('malformed'),
      oversized: countOf('oversized'),
      deliveryAttempts,
      receiverKills: kills,
      receiverExit: String(stopped),
      txids,
      trueFinalStages: finals,
      storedAtTrueStagePct: pct(storedRight, txids),
      reportedAtTrueStagePct: pct(reportedRight, txids),
      forgedAnswered401: answered('forged', 401),
      forgedStored,
      malformedAnswered400: answered('malformed', 400),
      oversizedAnswered413: answered('oversized', 413),
      genuineAnswered200: answered('genuine', 200) + answered('duplicate', 200),
      acceptedLost: lost,
      unsettledDeliveries: pending,
      receiverErrors: receiverOutput.split('\n').filter((line) => line.startsWith('receiver ')).length,
    };
    const checks = new Checks();
    checks.atLeast('sends', sends.length, total);
    checks.equal('receiverKills', kills, 2);
    checks.equal('storedAtTrueStagePct', figures.storedAtTrueStagePct, 100);
    checks.equal('reportedAtTrueStagePct', figures.reportedAtTrueStagePct, 100);
    checks.equal('forgedAnswered401', answered('forged', 401), countOf('forged'));
    checks.equal('forgedStored', forgedStored, 0);
    checks.equal('malformedAnswered400', answered('malformed', 400), countOf('malformed'));
    checks.equal('oversizedAnswered413', answered('oversized', 413), countOf('oversized'));
    checks.equal('genuineAnswered200', figures.genuineAnswered200, countOf('genuine') + countOf('duplicate'));
    checks.equal('acceptedLost', lost, 0);
    checks.equal('unsettledDeliveries', pending, 0);
    return result('webhook-chaos', started, figures, checks);
  } finally {
    await receiver?.kill();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const pct = (part: number, whole: number) => (whole === 0 ? 0 : Number(((100 * part) / whole).toFixed(2)));

async function post(url: string, send: Send): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': send.signature },
    body: send.body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The genuine deliveries once each, plus duplicates, forgeries, malformed and oversized bodies, shuffled. */
async function chaosOf(recorded: Payload[], total: number): Promise<Send[]> {
  const random = seeded(15);
  const pick = () => recorded[Math.floor(random() * recorded.length)]!;
  const genuine = async (payload: Payload, kind: 'genuine' | 'duplicate'): Promise<Send> => {
    const body = JSON.stringify(payload);
    return {
      kind,
      body,
      signature: await signBody(body, SECRET),
      stage: bitcoinDeliveryStage(payload),
      txids: payload.transactions.map((tx) => tx.txid),
    };
  };
  const sends: Send[] = [];
  for (const payload of recorded) sends.push(await genuine(payload, 'genuine'));
  for (let i = 0; i < Math.round(total * SHARES.duplicate); i++) {
    // The service's retry: the same delivery, `retries` one more, signed anew.
    const payload = pick();
    sends.push(await genuine({ ...payload, retries: (payload.retries ?? 0) + 1 }, 'duplicate'));
  }
  for (let i = 0; i < Math.round(total * SHARES.forged); i++) {
    // A forger's "confirmed" for a real block, with a transaction of its own, signed with a guess.
    const payload = pick();
    const fake = `${'f0'.repeat(28)}${i.toString(16).padStart(8, '0')}`;
    const forged = {
      ...payload,
      confirmed: true,
      block: { ...payload.block, height: payload.block.height === '0' ? '880001' : payload.block.height },
      transactions: [...payload.transactions, { ...payload.transactions[0], txid: fake }],
    };
    const body = JSON.stringify(forged);
    const signature = i % 2 === 0 ? await signBody(body, 'not-the-secret') : `0x${'ab'.repeat(32)}`;
    sends.push({ kind: 'forged', body, signature, txids: [fake] });
  }
  for (let i = 0; i < Math.round(total * SHARES.malformed); i++) {
    // Cut in half, and signed as cut: only a body whose bytes carry the signature is ever parsed
    // (one signed over other bytes is refused with 401 unparsed, as the forged ones are).
    const whole = JSON.stringify(pick());
    const body = whole.slice(0, Math.floor(whole.length / 2));
    sends.push({ kind: 'malformed', body, signature: `0x${await keccak(body + SECRET, 256)}` });
  }
  for (let i = 0; i < Math.round(total * SHARES.oversized); i++) {
    const body = JSON.stringify({ ...pick(), padding: 'x'.repeat(MAX_BODY_BYTES) });
    sends.push({ kind: 'oversized', body, signature: await signBody(body, SECRET) });
  }
  // The chaos lands anywhere in the run; then, shuffled within windows, a confirmed delivery often
  // arrives before its in-block one.
  const keyed = sends.map((send, index) => ({
    send,
    key: send.kind === 'genuine' ? index : random() * recorded.length,
  }));
  keyed.sort((a, b) => a.key - b.key);
  sends.splice(0, sends.length, ...keyed.map((entry) => entry.send));
  for (let from = 0; from < sends.length; from += SHUFFLE_WINDOW) {
    const to = Math.min(sends.length, from + SHUFFLE_WINDOW);
    for (let i = to - 1; i > from; i--) {
      const j = from + Math.floor(random() * (i - from + 1));
      [sends[i], sends[j]] = [sends[j]!, sends[i]!];
    }
  }
  return sends;
}
