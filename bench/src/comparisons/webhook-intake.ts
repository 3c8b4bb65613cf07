/**
 * Webhook intake: a signed delivery is verified, parsed and staged, in deliveries per second.
 * Blockwire's `createWebhookHandler` (signature in constant time, JSON, payload validation, the
 * Bitcoin delivery stage) against the official `Moralis.Streams.verifySignature` after
 * `JSON.parse` (no validation) and a hand-rolled receiver (node:crypto's keccak over the raw
 * bytes, then `JSON.parse`), for a 1 KB and a 50 KB EVM delivery and a 1.6 MB Bitcoin block of 3,000
 * transactions. Each receiver runs in a process of its own (`webhook-receivers.ts`), called in
 * process there, and over HTTP from a sender in another process to a node:http server in it.
 */

import { signBody } from '@blockwire/streams';
import { ownProcessNote, type ProcessOptions, startClientProcesses } from '../client-process.ts';
import { bitcoinDelivery, countForSize, evmDelivery, WEBHOOK_SECRET } from '../fixtures.ts';
import { type Contender, measureInterleaved } from '../harness.ts';
import { type Case, type Comparison, caseOf, figureTarget, summarize } from '../report.ts';
import {
  HTTP_CONCURRENCY,
  NATIVE_KECCAK,
  RECEIVERS,
  type WebhookArgs,
  type WebhookConfig,
} from './webhook-receivers.ts';

/** How the deliveries of one size are measured, in process and over HTTP alike. */
export interface DeliveryPlan extends ProcessOptions {
  /** Deliveries a run. */
  deliveries: number;
  /** Measured rounds, in process and over HTTP each. */
  rounds: number;
  /** Runs thrown away in each fresh process before its measured ones. */
  warmup: number;
}

export interface WebhookIntakeOptions {
  oneKb: DeliveryPlan;
  fiftyKb: DeliveryPlan;
  bitcoin: DeliveryPlan & { transactions: number };
}

interface Delivery {
  name: string;
  raw: Buffer;
  signature: string;
  plan: DeliveryPlan;
}

export async function webhookIntake(options: WebhookIntakeOptions): Promise<Comparison> {
  const deliveries: Delivery[] = [];
  for (const [name, payload, plan] of [
    ['EVM 1 KB', evmDelivery(countForSize(evmDelivery, 1_000)), options.oneKb],
    ['EVM 50 KB', evmDelivery(countForSize(evmDelivery, 50_000)), options.fiftyKb],
    [
      `Bitcoin ${options.bitcoin.transactions.toLocaleString('en')} txs`,
      bitcoinDelivery(options.bitcoin.transactions),
      options.bitcoin,
    ],
  ] as const) {
    const raw = Buffer.from(JSON.stringify(payload));
    deliveries.push({
      name: `${name.startsWith('EVM') ? name : `${name} (${(raw.length / 1e6).toFixed(2)} MB)`}`,
      raw,
      signature: await signBody(payload, WEBHOOK_SECRET),
      plan,
    });
  }
  const config: WebhookConfig = { deliveries: deliveries.map(({ raw, signature }) => ({ raw, signature })) };
  const receivers = await startClientProcesses<WebhookConfig, WebhookArgs>(
    new URL('./webhook-receivers.ts', import.meta.url),
    RECEIVERS,
    config,
  );

  const cases: Case[] = [];
  const caseSpreads: NonNullable<Comparison['spread']>[] = [];
  const caseCpuRatios: Record<string, number>[] = [];
  const caseRounds: number[] = [];
  try {
    const plans = deliveries.flatMap((delivery, index) =>
      (['in process', 'over HTTP'] as const).map((over) => ({
        contenders: RECEIVERS.map(
          (name): Contender => ({
            name,
            round: () =>
              receivers.clients[name]!.run({ delivery: index, count: delivery.plan.deliveries, over }),
          }),
        ),
        blockwire: 'blockwire',
        options: {
          rounds: delivery.plan.rounds,
          warmup: delivery.plan.warmup,
          spreadOver: receivers.spreadOver(delivery.plan.processes),
          label: `${delivery.name}, ${over}`,
        },
      })),
    );
    const measuredCases = await measureInterleaved(plans);
    for (const [i, measured] of measuredCases.entries()) {
      const summary = summarize(measured, 'blockwire', true);
      caseRounds.push(summary.rounds);
      cases.push(caseOf(plans[i]!.options.label, summary));
      caseSpreads.push(summary.spread);
      caseCpuRatios.push(summary.cpuRatios);
    }
  } finally {
    await receivers.close();
  }
  // The headline is the case the target is hardest on: the lowest client CPU ratio to the official SDK.
  const sdkCpu = (k: Case) => k.cpuRatios!.moralis!;
  const worstIndex = cases.reduce((a, k, i) => (sdkCpu(k) < sdkCpu(cases[a]!) ? i : a), 0);
  const worst = cases[worstIndex]!;
  return {
    id: 'webhook-intake',
    title: 'Webhook intake: verify + parse + stage',
    metric: `deliveries per second; the case shown is the least favourable of ${cases.length} against the official SDK (client CPU)`,
    unit: 'deliveries/s',
    higherIsBetter: true,
    blockwire: worst.blockwire,
    references: worst.references,
    ratios: worst.ratios,
    cpuRatios: caseCpuRatios[worstIndex]!,
    spread: caseSpreads[worstIndex]!,
    headlineCase: worst.name,
    leastFavourableTo: 'moralis',
    rounds: caseRounds[worstIndex]!,
    targets: [
      // On client CPU, the comparison's primary figure: the receiver's process's own time a run
      // (its HTTP server included, the sender's not); wall time beside it in the cases.
      // The native-keccak receiver: ≥ 0.95 at 1 KB, where the intake's own work weighs most, and
      // as much above, where hashing and parsing the bytes is most of what any receiver does.
      ...cases.map((k) =>
        figureTarget(
          `client CPU ≤ 1/0.95 × the hand-rolled native-keccak receiver's: ${k.name}`,
          { figure: 'cpuRatios', reference: 'hand-rolled-native', case: k.name, atLeast: 0.95 },
          { cases },
        ),
      ),
      ...cases.map((k) =>
        figureTarget(
          `client CPU ≤ 1/1.5 × the official SDK's: ${k.name}`,
          { figure: 'cpuRatios', reference: 'moralis', case: k.name, atLeast: 1.5 },
          { cases },
        ),
      ),
    ],
    cases,
    notes: [
      'Blockwire: `createWebhookHandler({ secret })` given the raw body (in process) or as a node:http listener (`handler.node`): JSON, signature (keccak256 in constant time), payload validation, the Bitcoin delivery stage, then the 200.',
      `hand-rolled-native: keccak256 over the raw bytes and the secret with ${NATIVE_KECCAK ? 'node:crypto’s `keccak-256` at every size, as Blockwire’s' : 'hash-wasm’s, since this runtime’s node:crypto has no `keccak-256` (so the key’s “native” does not hold in this run); Blockwire’s is hash-wasm’s here too'} (see the \`keccak\` comparison), a constant-time compare, then \`JSON.parse\`; no validation.`,
      'moralis: `JSON.parse` of the body, then `Moralis.Streams.verifySignature({ body, signature })` (moralis 2.27.2, `streamsSecret` configured; its keccak is the native `keccak` addon); no validation.',
      `${ownProcessNote(spreadText(deliveries.map((d) => d.plan.processes)))} The ${deliveries.length * 2} cases take those processes in turn, each case's spread evenly over the comparison's whole time, so a stretch of the machine running slower weighs a little on every case, not wholly on one. A run ends when every delivery was taken and what the receiver left for later (Blockwire's Bitcoin stage) has run.`,
      `Fresh processes and warm-up runs in each, per size: ${deliveries.map((d) => `${d.name} ${d.plan.processes} and ${d.plan.warmup}`).join(', ')}. A larger delivery warms a process up in fewer runs, and its processes, not its runs, are what vary: one settles into a cheap or a costly collector regime for its life.`,
      'In process: one delivery after another, with a turn of the event loop (`setImmediate`) at least every millisecond for every contender, so what a receiver leaves for later runs between deliveries as it would between requests.',
      `Over HTTP: a sender in a process of its own (an undici Pool, ${HTTP_CONCURRENCY} at a time) posts the delivery to a node:http server in the receiver's process, so client CPU is the receiver's alone; every server reads the whole body first.`,
      `Deliveries a run: ${deliveries.map((d) => `${d.plan.deliveries.toLocaleString('en')} of ${d.name}`).join(', ')}.`,
      `What no receiver that hashes and parses can beat: the official SDK's client CPU ÷ the hand-rolled receiver's (the two paired ratios to Blockwire divided), ${cases
        .map((k) => `${k.name} ${(k.cpuRatios!.moralis! / k.cpuRatios!['hand-rolled-native']!).toFixed(2)}`)
        .join(', ')}. A target of 1.5× the official SDK lies above that wherever it is below 1.5.`,
    ],
  };
}

/** `5` when every size is spread over as many processes, else `5 to 15`. */
function spreadText(counts: readonly number[]): number | string {
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  return low === high ? low : `${low} to ${high}`;
}
