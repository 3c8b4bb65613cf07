/**
 * Real Bitcoin deliveries for the webhook scenarios: what the emulator's simulator delivers to a
 * stream watching every address (mempool → in block → confirmed, evictions, transactions first
 * seen in a block), recorded once and replayed; their ground truth; a seeded PRNG.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BITCOIN_DELIVERY_STAGES,
  type BitcoinDeliveryStage,
  bitcoinDeliveryStage,
  createBitcoinStream,
  updateSettings,
} from '@blockwire/streams';
import { startEmulatorProcess } from './processes.ts';
import { taggedClient } from './sdk.ts';

/** Each stage's place in the lifecycle, as the kit orders them. */
export const RANK = Object.fromEntries(
  BITCOIN_DELIVERY_STAGES.map((stage, index) => [stage, index]),
) as Record<BitcoinDeliveryStage, number>;
const ADDRESSES = [
  'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
];

export interface Payload {
  confirmed: boolean;
  retries?: number;
  block: { height: string; hash: string };
  transactions: { txid: string }[];
  [field: string]: unknown;
}

/**
 * Drives the emulator's Bitcoin network and records what it delivers to a stream watching every
 * address: payments through the mempool, some first seen in a block, some evicted, a block mined
 * after every few. Stops once about `count` deliveries came in. The emulator signs them with
 * `secret`, as the service would.
 */
export async function recordDeliveries(
  count: number,
  options: { secret: string; tag: string },
): Promise<Payload[]> {
  const recorded: Payload[] = [];
  const recorder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text) recorded.push(JSON.parse(text) as Payload);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const emulator = await startEmulatorProcess();
  const client = taggedClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
  try {
    await updateSettings(client, { secretKey: options.secret });
    await createBitcoinStream(client, {
      webhookUrl: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/record`,
      allAddresses: true,
      tag: options.tag,
    });
    const deadline = Date.now() + 120_000;
    for (let round = 0; recorded.length < count && Date.now() < deadline; round++) {
      const txids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { txid } = await emulator.controlCall<{ txid: string }>('POST', '/bitcoin/transactions', {
          to: ADDRESSES[(round + i) % ADDRESSES.length],
          amountBtc: `0.0${1 + ((round * 4 + i) % 9)}`,
          ...(i === 3 && round % 3 === 0 ? { mined: true } : {}),
        });
        txids.push(txid);
      }
      if (round % 2 === 1) await emulator.controlCall('POST', '/bitcoin/evict', { txid: txids[0] });
      await emulator.controlCall('POST', '/bitcoin/mine', { blocks: 1 });
      // Let the stream's queue drain now and then, so the count above stays close to the truth.
      if (round % 20 === 19) await settled(recorded);
    }
    await settled(recorded);
  } finally {
    await client.close();
    await emulator.stop();
    recorder.closeAllConnections();
    recorder.close();
  }
  return recorded;
}

/** Waits until no delivery came in for 300 ms (at most 30 s). */
async function settled(recorded: unknown[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen = -1;
  while (seen !== recorded.length && Date.now() < deadline) {
    seen = recorded.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Each txid's final stage: the furthest stage of any genuine delivery that carried it. */
export function groundTruth(recorded: Payload[]): Map<string, BitcoinDeliveryStage> {
  const truth = new Map<string, BitcoinDeliveryStage>();
  for (const payload of recorded) {
    const stage = bitcoinDeliveryStage(payload);
    for (const { txid } of payload.transactions) {
      const known = truth.get(txid);
      if (!known || RANK[stage] > RANK[known]) truth.set(txid, stage);
    }
  }
  return truth;
}

/** A small seeded PRNG, so a run's chaos is the same every time (mulberry32). */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
