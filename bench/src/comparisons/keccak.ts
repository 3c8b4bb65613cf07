/**
 * The webhook kit's keccak256, at the three sizes of `webhook-intake` (a 1 KB and a 50 KB EVM
 * delivery, a 1.6 MB Bitcoin block), against each back-end it could use: node:crypto's
 * `keccak-256` (OpenSSL; Node 24.22 and later), hash-wasm's WebAssembly and @noble/hashes' pure
 * JavaScript. Blockwire is `verifyRawSignature` on the raw bytes, what its receiver runs before
 * anything else; each reference is its hash of the same bytes and the secret. Hashing is
 * synchronous CPU work, so every contender runs in this process, taking turns a slice at a time
 * (`measureInSlices`).
 */
import { createHash, getHashes } from 'node:crypto';
import { signBody, verifyRawSignature } from '@blockwire/streams';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createKeccak } from 'hash-wasm';
import { bitcoinDelivery, countForSize, evmDelivery, WEBHOOK_SECRET } from '../fixtures.ts';
import { collectGarbage, type Measured, ownCpuMs, type Run, rotate } from '../harness.ts';
import { type Case, type Comparison, caseOf, figureTarget, summarize } from '../report.ts';

export interface KeccakOptions {
  /** Hashes a run, per size: a run of each takes about as long. */
  hashes: { oneKb: number; fiftyKb: number; bitcoin: number };
  rounds: number;
  warmup: number;
}

/** About how long Blockwire's slice of hashing lasts before the next contender takes its turn. */
const SLICE_MS = 1;

/** One contender: hashes the size's bytes `count` times over. */
interface Hasher {
  name: string;
  hash(count: number): Promise<void> | void;
}

/**
 * Every contender's run of a round, made of slices of about `SLICE_MS` taken in turn (the order
 * rotating), not run after run: this machine's speed moves on a scale of tens of ms (at dfb94a6,
 * runs of six 1.65 MB hashes by node:crypto, 35 ms, took 21–51 ms of CPU in one process), so
 * whole runs one after the other drew different speeds (pairs' CPU ratios 0.6–1.5 where the same
 * hash ran on both sides), where slices of a millisecond draw the same. The round's CPU time of a
 * contender is the sum of its slices'.
 */
async function measureInSlices(
  hashers: readonly Hasher[],
  { hashes, rounds, warmup }: { hashes: number; rounds: number; warmup: number },
): Promise<{ measured: Measured; slice: number }> {
  const slice = await hashesLasting(SLICE_MS, hashers.find((hasher) => hasher.name === 'blockwire')!);
  const measured: Measured = { runs: {}, pairs: {} };
  for (const { name } of hashers) {
    measured.runs[name] = [];
    if (name !== 'blockwire') measured.pairs[name] = { blockwire: [], reference: [] };
  }
  for (let round = 0; round < warmup + rounds; round++) {
    await collectGarbage();
    const cpuMs: Record<string, number> = {};
    const wallMs: Record<string, number> = {};
    for (let done = 0, turn = round; done < hashes; done += slice, turn++) {
      const count = Math.min(slice, hashes - done);
      for (const hasher of rotate(hashers, turn)) {
        const cpuBefore = ownCpuMs();
        const start = performance.now();
        await hasher.hash(count);
        wallMs[hasher.name] = (wallMs[hasher.name] ?? 0) + performance.now() - start;
        cpuMs[hasher.name] = (cpuMs[hasher.name] ?? 0) + ownCpuMs() - cpuBefore;
      }
    }
    if (round < warmup) continue;
    const runOf = (name: string): Run => ({ figure: hashes / (wallMs[name]! / 1000), cpuMs: cpuMs[name]! });
    for (const { name } of hashers) measured.runs[name]!.push(runOf(name));
    for (const [name, pair] of Object.entries(measured.pairs)) {
      pair.blockwire.push(runOf('blockwire'));
      pair.reference.push(runOf(name));
    }
  }
  return { measured, slice };
}

/** How many hashes of `hasher`'s take about `ms` (doubling from one until they take that long). */
async function hashesLasting(ms: number, hasher: Hasher): Promise<number> {
  for (let count = 1; ; count *= 2) {
    const start = performance.now();
    await hasher.hash(count);
    if (performance.now() - start >= ms) return count;
  }
}

/** The back-ends, by reference name: each hashes `body` + the secret as a webhook signature is. */
async function backEnds(): Promise<Record<string, (body: Buffer) => unknown>> {
  const secret = Buffer.from(WEBHOOK_SECRET);
  const wasm = await createKeccak(256);
  return {
    ...(getHashes().includes('keccak-256')
      ? { 'node-crypto': (body: Buffer) => createHash('keccak-256').update(body).update(secret).digest() }
      : {}),
    'hash-wasm': (body) => wasm.init().update(body).update(secret).digest('binary'),
    noble: (body) => keccak_256.create().update(body).update(secret).digest(),
  };
}

export async function keccak(options: KeccakOptions): Promise<Comparison> {
  const sizes = [
    { name: '1 KB', payload: evmDelivery(countForSize(evmDelivery, 1_000)), hashes: options.hashes.oneKb },
    {
      name: '50 KB',
      payload: evmDelivery(countForSize(evmDelivery, 50_000)),
      hashes: options.hashes.fiftyKb,
    },
    { name: 'Bitcoin 3,000 txs', payload: bitcoinDelivery(3000), hashes: options.hashes.bitcoin },
  ];
  const references = await backEnds();
  const plans = await Promise.all(
    sizes.map(async ({ name, payload, hashes }) => {
      const body = Buffer.from(JSON.stringify(payload));
      const signature = await signBody(payload, WEBHOOK_SECRET);
      const label = name.startsWith('Bitcoin') ? `${name} (${(body.length / 1e6).toFixed(2)} MB)` : name;
      const blockwire: Hasher = {
        name: 'blockwire',
        async hash(count) {
          for (let i = 0; i < count; i++) {
            const valid = await verifyRawSignature({ body, signature, secret: WEBHOOK_SECRET });
            if (!valid) throw new Error(`the kit refused its own signature of ${label}`);
          }
        },
      };
      const others = Object.entries(references).map(
        ([reference, hash]): Hasher => ({
          name: reference,
          hash(count) {
            for (let i = 0; i < count; i++) hash(body);
          },
        }),
      );
      return { label, hashers: [blockwire, ...others], hashes };
    }),
  );
  const sliced: { measured: Measured; slice: number }[] = [];
  for (const { hashers, hashes } of plans) {
    sliced.push(await measureInSlices(hashers, { hashes, rounds: options.rounds, warmup: options.warmup }));
  }
  const measured = sliced.map((m) => m.measured);
  const cases: Case[] = measured.map((m, i) => caseOf(plans[i]!.label, summarize(m, 'blockwire', true)));
  const biggest = measured.length - 1;
  const headline = summarize(measured[biggest]!, 'blockwire', true);
  const microsOf = (k: Case) =>
    [['blockwire', k.blockwire] as const, ...Object.entries(k.references)]
      .map(([name, rate]) => `${name} ${(1e6 / rate).toFixed(1)}`)
      .join(', ');
  return {
    id: 'keccak',
    title: 'Webhook keccak256: the kit’s choice against each back-end',
    metric: 'hashes per second of a delivery’s raw bytes and the secret; the case shown is the 1.6 MB block',
    unit: 'hashes/s',
    higherIsBetter: true,
    blockwire: headline.blockwire,
    references: headline.references,
    ratios: headline.ratios,
    cpuRatios: headline.cpuRatios,
    spread: headline.spread,
    headlineCase: cases[biggest]!.name,
    rounds: headline.rounds,
    // Where hashing is most of the cost (50 KB and up), the kit's choice must be the fast
    // back-end here: never far behind hash-wasm or node:crypto. At 1 KB the verification around
    // the hash (the header's hex, the compare, a promise) is a fifth of the time: no target there.
    targets: cases
      .slice(1)
      .flatMap((k) =>
        ['hash-wasm', 'node-crypto']
          .filter((reference) => reference in k.references)
          .map((reference) =>
            figureTarget(
              `client CPU ≤ 1/0.9 × ${reference}'s: ${k.name}`,
              { figure: 'cpuRatios', reference, case: k.name, atLeast: 0.9 },
              { cases },
            ),
          ),
      ),
    cases,
    notes: [
      'blockwire: `verifyRawSignature({ body, signature, secret })` of `@blockwire/streams` on the raw bytes: keccak256 of the body and the secret by the back-end the kit picks in this runtime (node:crypto’s where it has `keccak-256`, else hash-wasm’s, else @noble/hashes’ where WebAssembly compiled from bytes is refused), then a constant-time compare.',
      `References: ${Object.keys(references).join(', ')} — each \`update(body).update(secret).digest()\`. node-crypto is there only where node:crypto has \`keccak-256\` (${getHashes().includes('keccak-256') ? 'it has here' : 'it has not here'}).`,
      `µs a hash (the median run's), by case: ${cases.map((k) => `${k.name}: ${microsOf(k)}`).join('; ')}.`,
      `Hashes a run: ${plans.map((p) => `${p.hashes} of ${p.label}`).join(', ')}; in this process, a collection before every round, and the contenders' runs of a round made of slices taken in turn (${plans.map((p, i) => `${sliced[i]!.slice} hash${sliced[i]!.slice === 1 ? '' : 'es'} a slice of ${p.label}`).join(', ')}), so that each run draws the machine's speed of the same moments.`,
    ],
  };
}
