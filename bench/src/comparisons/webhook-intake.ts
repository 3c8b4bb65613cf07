/**
 * Webhook intake: a signed delivery is verified, parsed and staged, in deliveries per second.
 * Blockwire's `createWebhookHandler` (signature in constant time, JSON, payload validation, the
 * Bitcoin delivery stage) against the official `Moralis.Streams.verifySignature` after
 * `JSON.parse` (no validation), for a 50 KB EVM delivery and a 1.6 MB Bitcoin block of 3,000
 * transactions; called in process, and over HTTP to a node:http server in the same process.
 */
import { signBody } from '@blockwire/streams';
import { createWebhookHandler } from '@blockwire/streams/webhooks';
import { Pool } from 'undici';
import { bitcoinDelivery, countForSize, evmDelivery, WEBHOOK_SECRET } from '../fixtures.ts';
import {
  type Contender,
  collectGarbage,
  measure,
  median,
  pairedRatios,
  type Range,
  range,
  since,
  withConcurrency,
} from '../harness.ts';
import { startMoralis } from '../moralis.ts';
import type { Case, Comparison } from '../report.ts';
import { listen, sendJson } from '../servers.ts';

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

  const blockwireServer = await listen((req, res) => void handler.node(req, res));
  const moralisServer = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        moralisIntake(Buffer.concat(chunks), String(req.headers['x-signature']));
        accepted++;
        sendJson(res, 200, Buffer.from('{"ok":true}'));
      } catch {
        sendJson(res, 401, Buffer.from('{"ok":false}'));
      }
    });
  });
  const pools = {
    blockwire: new Pool(blockwireServer.url, { connections: HTTP_CONCURRENCY }),
    moralis: new Pool(moralisServer.url, { connections: HTTP_CONCURRENCY }),
  };
  const post = async (pool: Pool, delivery: Delivery) => {
    const response = await pool.request({
      path: '/webhook',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': delivery.signature },
      body: delivery.raw,
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  };
  const perSecond = async (count: number, work: () => Promise<unknown> | unknown, concurrency = 1) => {
    const start = performance.now();
    await withConcurrency(count, concurrency, async () => work());
    return count / (since(start) / 1000);
  };

  const cases: Case[] = [];
  const figureRanges: { blockwire: Range; moralis: Range }[] = [];
  let rounds = 0;
  try {
    for (const delivery of deliveries) {
      for (const over of ['in process', 'over HTTP'] as const) {
        const contenders: Contender[] =
          over === 'in process'
            ? [
                {
                  name: 'blockwire',
                  round: () => perSecond(delivery.count, () => blockwireIntake(delivery)),
                },
                {
                  name: 'moralis',
                  round: () =>
                    perSecond(delivery.count, () => moralisIntake(delivery.raw, delivery.signature)),
                },
              ]
            : [
                {
                  name: 'blockwire',
                  round: () =>
                    perSecond(delivery.count, () => post(pools.blockwire, delivery), HTTP_CONCURRENCY),
                },
                {
                  name: 'moralis',
                  round: () =>
                    perSecond(delivery.count, () => post(pools.moralis, delivery), HTTP_CONCURRENCY),
                },
              ];
        const measured = await measure(contenders, 'blockwire', {
          rounds: options.rounds,
          warmup: options.warmup,
          settle: async () => {
            await handler.idle();
            collectGarbage();
          },
        });
        const pair = measured.pairs.moralis!;
        const ratios = pairedRatios(pair.blockwire, pair.reference, true);
        rounds = ratios.length;
        cases.push({
          name: `${delivery.name}, ${over}`,
          blockwire: median(measured.perRound.blockwire!),
          references: { moralis: median(measured.perRound.moralis!) },
          ratios: { moralis: median(ratios) },
          ratioRanges: { moralis: range(ratios) },
        });
        figureRanges.push({
          blockwire: range(measured.perRound.blockwire!),
          moralis: range(measured.perRound.moralis!),
        });
      }
    }
  } finally {
    await handler.idle();
    await pools.blockwire.close();
    await pools.moralis.close();
    await blockwireServer.close();
    await moralisServer.close();
  }
  if (accepted === 0) throw new Error('the official SDK accepted no delivery');
  // The headline is the case the target is hardest on: the one with the lowest ratio.
  const worstIndex = cases.reduce((a, c, i) => (c.ratios.moralis! < cases[a]!.ratios.moralis! ? i : a), 0);
  const worst = cases[worstIndex]!;
  return {
    id: 'webhook-intake',
    title: 'Webhook intake: verify + parse + stage',
    metric: `deliveries per second; the case shown is the least favourable of ${cases.length} (${worst.name})`,
    unit: 'deliveries/s',
    higherIsBetter: true,
    blockwire: worst.blockwire,
    references: worst.references,
    ratios: worst.ratios,
    spread: {
      blockwire: figureRanges[worstIndex]!.blockwire,
      references: { moralis: figureRanges[worstIndex]!.moralis },
      ratios: { moralis: worst.ratioRanges!.moralis! },
    },
    rounds,
    targets: cases.map((k) => ({
      text: `≥ 1.1 × the official SDK: ${k.name}`,
      met: k.ratios.moralis! >= 1.1,
    })),
    cases,
    notes: [
      'Blockwire: `createWebhookHandler({ secret })` given the raw body (in process) or as a node:http listener (`handler.node`): JSON, signature (keccak256 in constant time), payload validation, the Bitcoin delivery stage, then the 200.',
      'moralis: `JSON.parse` of the body, then `Moralis.Streams.verifySignature({ body, signature })` (moralis 2.27.2, `streamsSecret` configured; its keccak is the native `keccak` addon); no validation.',
      `Over HTTP: an undici Pool posts the delivery to a node:http server in the same process, ${HTTP_CONCURRENCY} at a time; both servers read the whole body first.`,
      `Deliveries a round: ${options.evmDeliveries} EVM, ${options.bitcoinDeliveries} Bitcoin.`,
    ],
  };
}
