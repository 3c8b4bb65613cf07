/** How big and how many rounds each comparison is, full and quick. */
import { isN8nInstalled, n8nCacheDir } from '../../packages/n8n-nodes-blockwire/e2e/install-n8n.ts';
import { coldStart } from './comparisons/cold-start.ts';
import { jsonRpc } from './comparisons/json-rpc.ts';
import { keccak } from './comparisons/keccak.ts';
import { n8nItems } from './comparisons/n8n-items.ts';
import { restMemory } from './comparisons/rest-memory.ts';
import { restOverhead } from './comparisons/rest-overhead.ts';
import { solanaScale } from './comparisons/solana-scale.ts';
import { webhookIntake } from './comparisons/webhook-intake.ts';
import { weight } from './comparisons/weight.ts';
import type { Comparison } from './report.ts';

/**
 * A quick run spreads its rounds over two fresh processes (`MeasureOptions.spreadOver`), so that
 * `npm test` goes through the restarts. A full run spreads them over more, each comparison as its
 * clients need: one process's collector settles into a cheap or a costly regime for its whole
 * life (bench/README.md, "A CPU ratio is the geometric mean of its pairs"), so a run's CPU ratio
 * moves with how many of its processes drew the costly one, and a process's later rounds add
 * little. Counts below were chosen by resampling the processes of the `--repeat 3` run at
 * b8112a9 (its BENCH_DEBUG log): how often three runs of a design would agree within ±10 %.
 */
const QUICK_PROCESSES = 2;

/** A comparison a quick run leaves out, and why. */
export interface Skip {
  skipped: string;
}

export async function runComparison(id: string, quick: boolean): Promise<Comparison | Skip> {
  switch (id) {
    case 'rest-overhead':
      return restOverhead(
        // 19 pairs, not 13: with 13 (at 003e755), fetch's single pairs ranged 2.67–5.49 and one
        // run's median of them lay 11.3 % from the median of three (9 before that: 11 %).
        // 5 warm-up runs in each fresh process, not 3: a fresh reference process settles after five
        // or six. With 3 (BENCH_DEBUG=1, at 4b33d30), undici-dispatch's first measured run of each
        // stretch took 133.8, 158.0, 200.1, 165.4 and 167.4 ms of CPU, its later ones a median of
        // 129.6, and every other reference's first runs were as high: the pairs a run's median is
        // taken from turned on how far each process had got.
        // 8 processes of 3 rounds, not 5 of about 4: undici-request's processes vary (one in five
        // settles into a costly regime); resampled, three runs agreed within ±10 % in 88 % of tries
        // with 5, 93 % with 8.
        quick
          ? { calls: 1000, rounds: 2, warmup: 1, processes: QUICK_PROCESSES }
          : // 2,500 calls a run and 6 processes of 3 rounds, not 5,000 and 8 (issue 63: a full run a
            // contributor can wait for): at 73a9651 the three runs agreed within ±4.4 %, so the
            // runs can be halved and a quarter of the processes dropped (a spread growing as
            // 1/√n: about ±6 %); a run is still some 50 ms of client CPU or more.
            // moralis warms up for 2 rounds: at 2f2ed39 its CPU ratio in a fresh process's rounds
            // was 10.3, 12.2, 13.4, 12.8, 15.9, 12.3 and settled near 12.2 from the second, where a
            // run of it is 1.1 s, a third of the comparison's time.
            { calls: 2500, rounds: 18, warmup: 5, warmupOf: { moralis: 2 }, processes: 6 },
      );
    case 'rest-memory':
      // A fresh process a run, so no warm-up: a process's resident set after 100k calls varied by
      // about ±6 % between processes (at the first run, 5 of each), far less than the 1.3× the
      // target allows, so 4 rounds; a run is some 8 s.
      // 6 rounds, not 4: at 2f2ed39 the memory ratio's three runs agreed (1.07, 1.03, 1.13) but
      // the CPU ratio's missed (0.834, 0.922, 0.834: ±10.5 %).
      return restMemory(
        quick ? { calls: 2000, rounds: 2, warmup: 0 } : { calls: 100_000, rounds: 6, warmup: 0 },
      );
    case 'solana-scale':
      return solanaScale(
        quick
          ? // Two passes, so that `npm test` goes through a run's averaging.
            {
              addresses: 2000,
              passes: 2,
              rounds: 2,
              warmup: 1,
              overLimitRounds: 2,
              processes: QUICK_PROCESSES,
            }
          : // 4 passes a run: a pass is 30–120 ms of CPU in ~290 ms, by whether a collection fell in
            // it (at b7cf0f8, undici-concurrent's passes took a median 29 ms without one, 45 with a
            // mark-compact, 62 with a scavenge too; Blockwire's 31, 59, 71), and a client's
            // collections come every few passes, so the median of a run's pairs turned on how the two
            // clients' collections fell: with one pass a run and 30 pairs, undici-concurrent's CPU
            // ratio was 1.05, 0.71 and 1.06 in three runs.
            // Warm-up: a fresh undici-concurrent process took 75–100 ms of CPU a pass for its first
            // passes, 50–55 later; two runs of four are eight passes.
            // 12 processes of 2 rounds: resampled at b8112a9, sequential's three runs agreed within
            // ±10 % in 86 % of tries with 5 processes, 93 % with 8; yet at ff07f71, with 8,
            // undici-concurrent's processes ranged 1.08–1.88 within one run and its three runs
            // missed (±12.8 %): a run is 40–100 ms of CPU, so a process is a wide draw.
            // 5 rounds a process, not 2: sequential prices once a run, so its CPU is one pass's,
            // and a pass may hold a collection or a burst of system time (at cac20d4 and 9989e9d,
            // its runs' system time was a median 52–55 ms, up to 622 and 714), so its pairs vary
            // most (their logarithms' standard deviation 0.31) and its runs missed at 9989e9d
            // (±12.5 %). The two pairs of a process hardly correlate (0.09), so later rounds add as
            // much as new processes, for less: resampling those pairs, three runs agreed in 74 % of
            // tries with 24 pairs, 95 % with 60.
            // undici-concurrent warms up for 6 rounds: with 2 (at 4b6bd6c, BENCH_DEBUG=1 pnpm bench
            // --only solana-scale --repeat 3), its CPU a pass was 52–88 ms in a process's 3rd to 5th
            // rounds and 31–58 from its 6th, where Blockwire's, which runs twice a round, had
            // settled by its 3rd; so its measured rounds held both, and its processes ranged
            // 0.95–1.48 within a run. Its three runs agreed (1.24, 1.28 and 1.26), but on a mix: a
            // settled undici-concurrent costs nearly what Blockwire does. Its 4 rounds more, with
            // Blockwire after each, add about 10 s a process.
            // 6 processes of 5 rounds, not 12 (issue 63): at 73a9651 the three runs agreed within
            // ±2.4 % (undici-concurrent) and the sequential reference within it, so half the rounds
            // and processes (about ±3.5 % as 1/√n) halve the comparison's time.
            // The over-limit case: 12 rounds in the warm processes, not 30 after 6 more warm-up
            // rounds (its 30 pairs agreed within ±2.5 % at dfb94a6: 1.071, 1.096, 1.044), a quarter
            // of the comparison's time. 20, not 12: with 12 (at 2f2ed39) they missed (1.002, 0.891,
            // 1.082: ±11.1 %).
            // undici-concurrent warms up for 3 rounds, not 6: since Blockwire warms up once a round
            // (harness.ts), not after every reference, at 2f2ed39 undici-concurrent's ratio in a
            // fresh process's rounds was 1.25, 1.32, 1.22, then 0.98, 1.05, 1.00 and 0.92–1.15 in
            // the measured ones: it had settled by its fourth round.
            // The over-limit rounds are spread over the 6 processes (solana-scale.ts), not run in
            // the last one's: there, each run was one process's draw, and at 4e62f03 its three runs
            // missed (1.07, 1.07, 0.94: ±12.2 %), as they did at 10 ms latency (1.10, 1.08, 0.91).
            {
              addresses: 10_000,
              passes: 4,
              rounds: 30,
              warmup: 2,
              warmupOf: { 'undici-concurrent': 3 },
              overLimitRounds: 20,
              processes: 6,
            },
      );
    case 'json-rpc':
      return jsonRpc(
        quick
          ? {
              blocks: 40,
              transactionsPerBlock: 10,
              passes: 2,
              rounds: 2,
              warmup: 1,
              processes: QUICK_PROCESSES,
            }
          : // viem's processes draw one of two regimes (b8112a9's log: about 0.5 scavenges a run
            // and 3,000 page faults, or 2 and 7,000; its CPU a run 190–240 or 280–440 ms), so its
            // CPU ratio over one process's rounds ranged 1.46–2.82 and a run's over 5 processes
            // 1.87–2.39. 10 processes of 3 rounds, not 5 of 10: resampled, three runs agreed within
            // ±10 % in 56 % of tries with 5 processes, 94 % with 10.
            // In a fresh client process (BENCH_DEBUG=1), the first round costs several times the CPU
            // of later ones, and the next two up to twice.
            // Those two regimes were V8's memory reducer (json-rpc.ts: its processes now run
            // without it), and viem warming up: at 9989e9d its measured rounds (a process's 4th to
            // 6th) took 200–470 ms of CPU where Blockwire's had settled, and its runs missed
            // (±15.2 %); without the reducer, a viem process settles from its 6th to 9th round.
            // With 8 warm-up rounds and 6 processes of 5 (BENCH_DEBUG=1 pnpm bench --only json-rpc
            // --repeat 3, this plan otherwise), viem's three runs were 2.12, 1.86 and 2.11 with the
            // reducer (its processes 1.26–3.20), 1.31, 1.42 and 1.47 without (1.17–1.67);
            // resampling those processes, three runs agreed within ±10 % in 93 % of tries with 6,
            // 97 % with 8, and undici-request's too. In that log undici-request settles from its 5th
            // or 6th round, ethers and Blockwire (which runs after every reference) by their 3rd or
            // 4th: each reference warms up as long as it needs (`warmupOf`), which saves about a
            // quarter of the comparison's time.
            // Since the node proxy answers from memory what anvil answered once (anvil.ts), a pass
            // takes 50–250 ms where a round took 0.7–1.0 s, and a run asks for the blocks 6 times
            // over (json-rpc.ts, `passes`), which averages the collections out of a run: at
            // dfb94a6's plan, single passes' CPU a run ranged 2× with one mark-compact in them or
            // none. Warm-up is counted in runs of 6 passes, so 2 (viem 3) are what 6–9 rounds were.
            // In `BENCH_DEBUG=1 pnpm bench --only json-rpc --repeat 3` with this plan (386 s for
            // all three), the runs agreed within ±3.8 % (undici-dispatch 0.832, 0.817, 0.809), and
            // the processes' mean ratios spread no more than their pairs predict (sd 0.035 against
            // 0.043 for undici-dispatch), so 4 processes of 6 rounds.
            {
              blocks: 300,
              transactionsPerBlock: 10,
              passes: 6,
              rounds: 24,
              warmup: 2,
              warmupOf: { viem: 3 },
              processes: 4,
            },
      );
    case 'webhook-intake':
      return webhookIntake(
        quick
          ? {
              oneKb: { deliveries: 500, rounds: 2, warmup: 1, processes: QUICK_PROCESSES },
              fiftyKb: { deliveries: 50, rounds: 2, warmup: 1, processes: QUICK_PROCESSES },
              bitcoin: {
                deliveries: 4,
                transactions: 3000,
                rounds: 2,
                warmup: 1,
                processes: QUICK_PROCESSES,
              },
            }
          : // A fresh receiver process takes about 5 rounds of 1 KB deliveries before its CPU a
            // delivery settles (at about half that of the first rounds), every receiver alike; of
            // 50 KB or Bitcoin deliveries, one or two (b8112a9's log: the medians of the first runs
            // of 15 processes). 30 pairs for 1 KB (25 before, 13 before that): with 13 (ca77185),
            // single pairs ranged 0.72–1.12 against the hand-rolled receiver in process.
            // 1,200 deliveries of 50 KB a run, not 400: runs of 400 drew 0–4 mark-compacts of the
            // official SDK's large heap each (a PerformanceObserver on 'gc'), so their CPU ranged
            // 212–532 ms. Its processes over HTTP draw a regime too (b8112a9: a process's median CPU
            // a run 570–590 ms or 860–1050), as the hand-rolled receiver's do with Bitcoin over HTTP:
            // 15 processes of 2 rounds, not 5 of 5: resampled, three runs agreed within ±10 % in 84 %
            // of tries on both, against 44 % and 65 %.
            // 1 KB over 10 processes of 3 rounds, not 5 of 5: at cac20d4 the official SDK's 1 KB
            // receivers over HTTP ranged 1.32–1.91 a process and its three runs missed (1.74, 1.53,
            // 1.54: ±12.9 %); resampled, three runs agreed within ±10 % in 71 % of tries with 5
            // processes, 87 % with 10.
            // Resampling the processes of the run at 9989e9d (each process's pairs kept together,
            // for a process's pairs correlate: 0.43 for Bitcoin over HTTP), three runs agreed within
            // ±10 % in this many tries: Bitcoin over HTTP, against the hand-rolled receiver, 88 %
            // with 15 processes, 97 % with 25 (its runs missed at cac20d4 and at 9989e9d: 0.91, 0.93,
            // 1.04); 1 KB over HTTP, against the official SDK, 87 % with 10, 92 % with 12; 50 KB,
            // every reference either way, 99 % or more with 10. So 25, 12 and 10 processes.
            // Fewer processes of more rounds each (issue 63: a full run a contributor can wait for).
            // In `BENCH_DEBUG=1 pnpm bench --only webhook-intake` at 0e90d3a (AMD EPYC), the
            // processes' mean log CPU ratios spread no more than their pairs' own noise predicts
            // (standard deviation 0.035–0.107, against 0.036–0.124 from the pairs within a process
            // alone, every case and reference): no regime told one process from another there, so
            // the pairs, not the processes, set a run's spread, and a pair costs less in a process
            // already warm. Resampling that log's pairs, three runs agreed within ±10 % in every case
            // and reference at once in 99 % of tries with 48 pairs of 1 KB, 25 of 50 KB and 30 of
            // Bitcoin (98 % with the 36, 20 and 50 before), for 64 % of the runs (58 % of their CPU)
            // and 36 % of the process starts. The warm-ups stay: in that log the hand-rolled
            // receiver's ratio in a process's second round still lay 2–5 % above its settled one
            // (Bitcoin 0.91 against 0.87), and at 1 KB until the fifth.
            // Then fewer again, and over 3 processes each (2 for 50 KB): in the `--repeat 3` run at
            // af16711 every case's three runs agreed within ±4.2 % (over HTTP at 1 KB: hand-rolled
            // 0.954, 0.968, 1.009), so two fifths of the pairs (a spread about 1.6 times as wide, as
            // 1/√n) still leave room within ±10 %, and half the processes halve the warm-up runs.
            {
              oneKb: { deliveries: 4000, rounds: 18, warmup: 5, processes: 3 },
              fiftyKb: { deliveries: 1200, rounds: 10, warmup: 2, processes: 2 },
              bitcoin: { deliveries: 30, transactions: 3000, rounds: 12, warmup: 2, processes: 3 },
            },
      );
    case 'keccak':
      // A run of each size takes about as long: 20 to 40 ms of node:crypto, 0.3 to 1.2 s of pure JS.
      // 12,000 hashes of 1 KB a run, not 4,000: taken in slices (keccak.ts), the runs of 4,000
      // still spread most at 1 KB (node-crypto's three runs 0.837, 0.751 and 0.768, ±8.9 %), where
      // a run is 40 ms and the verification's promises bring collections the hashes alone do not.
      return keccak(
        quick
          ? { hashes: { oneKb: 2000, fiftyKb: 100, bitcoin: 3 }, rounds: 3, warmup: 1 }
          : { hashes: { oneKb: 12_000, fiftyKb: 200, bitcoin: 6 }, rounds: 15, warmup: 3 },
      );
    case 'weight':
      return weight();
    case 'cold-start':
      // A fresh process a run, so no process settles into a regime and no warm-up but the disk's:
      // 20 rounds give each reference 20 processes (Blockwire's build about twice as many).
      return coldStart(quick ? { rounds: 3, warmup: 1 } : { rounds: 20, warmup: 1 });
    case 'n8n-items':
      // Installing n8n takes minutes, once per machine: a quick run (the smoke test of npm test)
      // does not wait for it. The n8n package's e2e test runs both workflows in that n8n anyway.
      if (quick && !isN8nInstalled()) {
        return { skipped: `n8n is not installed in ${n8nCacheDir()} yet (the n8n e2e test installs it)` };
      }
      // 15 rounds, not 9: with 9 (at 003e755), the single pairs' CPU ratio to the HTTP Request node
      // ranged 16.7–27.6 and one run's median lay 11.1 % from the median of three (7 before: 10.5 %).
      // Over 3 starts of n8n, not 1: at b8112a9 the Aggregate workflow cost more in most rounds of
      // the third run's n8n (a median 260 ms of CPU a run, against 241 and 222), its ratio 1.29
      // against 1.13 and 1.13: one n8n process is one draw, as any client's is.
      // Over 5 starts, not 3: at ff07f71 the three runs' n8n processes ranged 0.98–1.29 and the
      // runs missed (1.02, 1.16, 1.17: ±11.9 %); a start costs ~20 s.
      return n8nItems(
        quick
          ? { items: 200, rounds: 1, warmup: 0, processes: 1 }
          : // http-request-node in one round of 3 (5 pairs a run, not 15): its execution is 4.6 s,
            // 277 s of the 626 the comparison took at 580eddd, its CPU ratio about 18 against a
            // target of > 1, and its three runs there agreed within ±2.6 % (17.6, 18.5, 17.9).
            { items: 1000, rounds: 15, warmup: 1, processes: 5, measureEvery: { 'http-request-node': 3 } },
      );
    default:
      throw new Error(`no plan for ${id}`);
  }
}
