/**
 * Webhook intake: a signed delivery is verified, parsed and staged, in deliveries per second.
 * Blockwire's `createWebhookHandler` (signature in constant time, JSON, payload validation, the
 * Bitcoin delivery stage) against the official `Moralis.Streams.verifySignature` after
 * `JSON.parse` (no validation) and a hand-rolled receiver (keccak over the raw bytes, then
 * `JSON.parse`), for a 1 KB and a 50 KB EVM delivery and a 1.6 MB Bitcoin block of 3,000 transactions; called in
 * process (with a turn of the event loop at least every millisecond), and over HTTP from a sender in a child
 * process to a node:http server in this one, so that this process's CPU time is the receiver's alone.
 */

import { timingSafeEqual } from 'node:crypto';
import { signBody } from '@blockwire/streams';
import { createWebhookHandler } from '@blockwire/streams/webhooks';
import { createKeccak } from 'hash-wasm';
import { bitcoinDelivery, countForSize, evmDelivery, WEBHOOK_SECRET } from '../fixtures.ts';
import { type Contender, collectGarbage, measure, since } from '../harness.ts';
import { startMoralis } from '../moralis.ts';
import { type Case, type Comparison, ratioTarget, summarize } from '../report.ts';
import { listen, sendJson } from '../servers.ts';
import { startWebhookSender } from '../webhook-sender.ts';

const HTTP_CONCURRENCY = 4;

export interface WebhookIntakeOptions {
  /** Deliveries a round, per size. */
  evmDeliveries: number;
  bitcoinDeliveries: number;
  bitcoinTransactions: number;
  rounds: number;
  warmup: number;
}

interface Delivery {
  name: string;
  raw: Buffer;
  signature: string;
  count: number;
}

export async function webhookIntake(options: WebhookIntakeOptions): Promise<Comparison> {
  // The official SDK's verifySignature reads the secret from its configuration.
  const moralis = await startMoralis('http://127.0.0.1:9/api/v2.2');
  const deliveries: Delivery[] = [];
  for (const [name, payload, count] of [
    ['EVM 1 KB', evmDelivery(countForSize(evmDelivery, 1_000)), options.evmDeliveries * 10],
    ['EVM 50 KB', evmDelivery(countForSize(evmDelivery, 50_000)), options.evmDeliveries],
    [
      `Bitcoin ${options.bitcoinTransactions.toLocaleString('en')} txs`,
      bitcoinDelivery(options.bitcoinTransactions),
      options.bitcoinDeliveries,
    ],
  ] as const) {
    const raw = Buffer.from(JSON.stringify(payload));
    deliveries.push({
      name: `${name.startsWith('EVM') ? name : `${name} (${(raw.length / 1e6).toFixed(2)} MB)`}`,
      raw,
      signature: await signBody(payload, WEBHOOK_SECRET),
      count,
    });
  }

  let accepted = 0;
  const handler = createWebhookHandler({
    secret: WEBHOOK_SECRET,
    onError: (error) => {
      throw error;
    },
  });
  const blockwireIntake = async (delivery: Delivery) => {
    const response = await handler({
      method: 'POST',
      headers: { 'x-signature': delivery.signature },
      rawBody: delivery.raw,
    });
    if (response.status !== 200 || response.body.message !== 'accepted')
      throw new Error(response.body.message);
  };
  const moralisIntake = (raw: Buffer, signature: string) => {
    const body = JSON.parse(raw.toString('utf8'));
    moralis.Streams.verifySignature({ body, signature });
    return body;
  };
  // What a sceptic writes in five lines: keccak256 over the raw bytes and the secret (the service
  // signs the JSON exactly as it sends it), a constant-time compare, then JSON.parse. No validation.
  const keccak = await createKeccak(256);
  const secret = Buffer.from(WEBHOOK_SECRET);
  const handRolledIntake = (raw: Buffer, signature: string) => {
    const digest = Buffer.from(keccak.init().update(raw).update(secret).digest('binary'));
    const given = Buffer.from(signature.slice(2), 'hex');
    if (given.length !== 32 || !timingSafeEqual(digest, given)) throw new Error('bad signature');
    return JSON.parse(raw.toString('utf8'));
  };
  const references = { moralis: moralisIntake, 'hand-rolled': handRolledIntake } as const;
  type ReferenceName = keyof typeof references;
  const referenceNames = Object.keys(references) as ReferenceName[];

  const blockwireServer = await listen((req, res) => void handler.node(req, res));
  const referenceServer = (intake: (raw: Buffer, signature: string) => unknown) =>
    listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          intake(Buffer.concat(chunks), String(req.headers['x-signature']));
          accepted++;
          sendJson(res, 200, Buffer.from('{"ok":true}'));
        } catch {
          sendJson(res, 401, Buffer.from('{"ok":false}'));
        }
      });
    });
  const servers = {
    blockwire: blockwireServer,
    moralis: await referenceServer(moralisIntake),
    'hand-rolled': await referenceServer(handRolledIntake),
  };
  const sender = await startWebhookSender(deliveries);
  // One delivery after another, with a turn of the event loop at least every millisecond, as a
  // busy receiver has between the batches of requests its sockets bring: what a receiver leaves
  // for later (a callback, the Bitcoin stage) runs then, not after the last delivery. Not a turn
  // after each delivery: that costs more than a 1 KB delivery's whole intake, and would drown it.
  const inProcessPerSecond = async (count: number, intake: () => Promise<unknown> | unknown) => {
    const start = performance.now();
    let turn = start;
    for (let i = 0; i < count; i++) {
      await intake();
      if (performance.now() - turn >= 1) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
    }
    return count / (since(start) / 1000);
  };
  const overHttpPerSecond = async (count: number, url: string, delivery: number) => {
    const start = performance.now();
    await sender.post({ url: `${url}/webhook`, delivery, count, concurrency: HTTP_CONCURRENCY });
    return count / (since(start) / 1000);
  };

  const cases: Case[] = [];
  const caseSpreads: NonNullable<Comparison['spread']>[] = [];
  const caseCpuRatios: Record<string, number>[] = [];
  let rounds = 0;
  try {
    for (const [index, delivery] of deliveries.entries()) {
      for (const over of ['in process', 'over HTTP'] as const) {
        const contender = (name: 'blockwire' | ReferenceName): Contender => ({
          name,
          round: () =>
            over === 'in process'
              ? inProcessPerSecond(delivery.count, () =>
                  name === 'blockwire'
                    ? blockwireIntake(delivery)
                    : references[name](delivery.raw, delivery.signature),
                )
              : overHttpPerSecond(delivery.count, servers[name].url, index),
        });
        const measured = await measure(
          [contender('blockwire'), ...referenceNames.map(contender)],
          'blockwire',
          {
            rounds: options.rounds,
            warmup: options.warmup,
            settle: async () => {
              await handler.idle();
              collectGarbage();
            },
          },
        );
        const summary = summarize(measured, 'blockwire', true);
        rounds = summary.rounds;
        cases.push({
          name: `${delivery.name}, ${over}`,
          blockwire: summary.blockwire,
          references: summary.references,
          ratios: summary.ratios,
          ratioRanges: summary.spread.ratios,
        });
        caseSpreads.push(summary.spread);
        caseCpuRatios.push(summary.cpuRatios);
      }
    }
  } finally {
    await handler.idle();
    await sender.close();
    for (const server of Object.values(servers)) await server.close();
  }
  if (accepted === 0) throw new Error('the official SDK accepted no delivery');
  // The headline is the case the target is hardest on: the one with the lowest ratio to the official SDK.
  const worstIndex = cases.reduce((a, c, i) => (c.ratios.moralis! < cases[a]!.ratios.moralis! ? i : a), 0);
  const worst = cases[worstIndex]!;
  const oneKbInProcess = cases.findIndex(
    (k) => k.name.startsWith('EVM 1 KB') && k.name.endsWith('in process'),
  );
  return {
    id: 'webhook-intake',
    title: 'Webhook intake: verify + parse + stage',
    metric: `deliveries per second; the case shown is the least favourable against the official SDK of ${cases.length} (${worst.name})`,
    unit: 'deliveries/s',
    higherIsBetter: true,
    blockwire: worst.blockwire,
    references: worst.references,
    ratios: worst.ratios,
    cpuRatios: caseCpuRatios[worstIndex]!,
    spread: caseSpreads[worstIndex]!,
    rounds,
    targets: [
      ratioTarget(
        `≥ 0.9 × the hand-rolled raw-bytes receiver: ${cases[oneKbInProcess]!.name}`,
        { figure: 'ratios', reference: 'hand-rolled', case: cases[oneKbInProcess]!.name, atLeast: 0.9 },
        { cases },
      ),
      ...cases.map((k) =>
        ratioTarget(
          `≥ 1.5 × the official SDK: ${k.name}`,
          { figure: 'ratios', reference: 'moralis', case: k.name, atLeast: 1.5 },
          { cases },
        ),
      ),
    ],
    cases,
    notes: [
      'Blockwire: `createWebhookHandler({ secret })` given the raw body (in process) or as a node:http listener (`handler.node`): JSON, signature (keccak256 in constant time), payload validation, the Bitcoin delivery stage, then the 200.',
      'hand-rolled: keccak256 (hash-wasm) over the raw bytes and the secret, a constant-time compare, then `JSON.parse`; no validation.',
      'moralis: `JSON.parse` of the body, then `Moralis.Streams.verifySignature({ body, signature })` (moralis 2.27.2, `streamsSecret` configured; its keccak is the native `keccak` addon); no validation.',
      'In process: one delivery after another, with a turn of the event loop (`setImmediate`) at least every millisecond for every contender, so what a receiver leaves for later runs between deliveries as it would between requests.',
      `Over HTTP: a sender in a child process (an undici Pool, ${HTTP_CONCURRENCY} at a time) posts the delivery to a node:http server in the bench's process, so client CPU is the receiver's alone; every server reads the whole body first.`,
      `Deliveries a round: ${options.evmDeliveries} EVM, ${options.bitcoinDeliveries} Bitcoin.`,
      `What no receiver that hashes and parses can beat: the hand-rolled receiver's rate ÷ the official SDK's (medians), ${cases
        .map((k) => `${k.name} ${(k.references['hand-rolled']! / k.references.moralis!).toFixed(2)}`)
        .join(', ')}. A target of 1.5× the official SDK lies above that wherever it is below 1.5.`,
    ],
  };
}
