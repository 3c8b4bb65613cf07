/** How big and how many rounds each comparison is, full and quick. */
import { isN8nInstalled, n8nCacheDir } from '../../packages/n8n-nodes-blockwire/e2e/install-n8n.ts';
import { jsonRpc } from './comparisons/json-rpc.ts';
import { n8nItems } from './comparisons/n8n-items.ts';
import { restOverhead } from './comparisons/rest-overhead.ts';
import { solanaScale } from './comparisons/solana-scale.ts';
import { webhookIntake } from './comparisons/webhook-intake.ts';
import { weight } from './comparisons/weight.ts';
import type { Comparison } from './report.ts';

/**
 * The fresh processes each contender's measured rounds are spread over, in a full run
 * (`MeasureOptions.spreadOver`): one process in a few can settle into a costly collector state for
 * its whole life (bench/README.md, "REST's `undici-request` is slow in some processes"), and with
 * five stretches a run's median moves only when three of the five do. A quick run uses two, so
 * that `npm test` goes through the restarts.
 */
const PROCESSES = 5;
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
        quick
          ? { calls: 1000, rounds: 2, warmup: 1, processes: QUICK_PROCESSES }
          : { calls: 5000, rounds: 19, warmup: 5, processes: PROCESSES },
      );
    case 'solana-scale':
      return solanaScale(
        quick
          ? // Two passes, so that `npm test` goes through a run's averaging.
            { addresses: 2000, passes: 2, rounds: 2, warmup: 1, processes: QUICK_PROCESSES }
          : // 4 passes a run: a pass is 30–120 ms of CPU in ~290 ms, by whether a collection fell in
            // it (at b7cf0f8, undici-concurrent's passes took a median 29 ms without one, 45 with a
            // mark-compact, 62 with a scavenge too; Blockwire's 31, 59, 71), and a client's
            // collections come every few passes, so the median of a run's pairs turned on how the two
            // clients' collections fell: with one pass a run and 30 pairs, undici-concurrent's CPU
            // ratio was 1.05, 0.71 and 1.06 in three runs.
            // Warm-up: a fresh undici-concurrent process took 75–100 ms of CPU a pass for its first
            // passes, 50–55 later; two runs of four are eight passes.
            { addresses: 10_000, passes: 4, rounds: 20, warmup: 2, processes: PROCESSES },
      );
    case 'json-rpc':
      return jsonRpc(
        quick
          ? { blocks: 40, transactionsPerBlock: 10, rounds: 2, warmup: 1, processes: QUICK_PROCESSES }
          : // Runs on a shared machine vary most here (anvil does most of the work): more pairs than
            // elsewhere. 50, not 25: with 25, viem's CPU ratio lay 15 % from the median of three
            // runs (1294cf0), its single pairs ranging 0.87–3.75, too wide for 25 to pin a median.
            // In a fresh client process (BENCH_DEBUG=1), the first round costs several times the CPU
            // of later ones, and the next two up to twice.
            { blocks: 300, transactionsPerBlock: 10, rounds: 50, warmup: 3, processes: PROCESSES },
      );
    case 'webhook-intake':
      return webhookIntake(
        quick
          ? {
              oneKbDeliveries: 500,
              fiftyKbDeliveries: 50,
              bitcoinDeliveries: 4,
              bitcoinTransactions: 3000,
              rounds: 2,
              warmup: 1,
              processes: QUICK_PROCESSES,
            }
          : // A fresh receiver process takes about 5 rounds of 1 KB deliveries before its CPU a
            // delivery settles (at about half that of the first rounds), every receiver alike.
            // Its targets are on each case's own pairs: 25, not 13. With 13 (ca77185), single pairs
            // ranged 0.72–1.12 against the hand-rolled receiver at 1 KB in process, and the official
            // SDK's at 50 KB over HTTP 1.29–2.23, whose medians of three runs lay ±18 % apart.
            // 1,200 deliveries of 50 KB a run, not 400: 25 pairs did not tame the SDK there (cbe4f7d:
            // 1.58, 1.38, 1.82). Its runs of 400 drew 0–4 mark-compacts of its large heap each (a
            // PerformanceObserver on 'gc'), so their CPU ranged 212–532 ms; in one set of processes,
            // medians of 13 pairs ranged 1.27–1.88 with 400 a run, 1.38–1.69 with 1,200.
            {
              oneKbDeliveries: 4000,
              fiftyKbDeliveries: 1200,
              bitcoinDeliveries: 30,
              bitcoinTransactions: 3000,
              rounds: 25,
              warmup: 5,
              processes: PROCESSES,
            },
      );
    case 'weight':
      return weight();
    case 'n8n-items':
      // Installing n8n takes minutes, once per machine: a quick run (the smoke test of npm test)
      // does not wait for it. The n8n package's e2e test runs both workflows in that n8n anyway.
      if (quick && !isN8nInstalled()) {
        return { skipped: `n8n is not installed in ${n8nCacheDir()} yet (the n8n e2e test installs it)` };
      }
      // 15 rounds, not 9: with 9 (at 003e755), the single pairs' CPU ratio to the HTTP Request node
      // ranged 16.7–27.6 and one run's median lay 11.1 % from the median of three (7 before: 10.5 %).
      return n8nItems(quick ? { items: 200, rounds: 1, warmup: 0 } : { items: 1000, rounds: 15, warmup: 1 });
    default:
      throw new Error(`no plan for ${id}`);
  }
}
