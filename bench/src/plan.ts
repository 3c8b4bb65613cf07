/** How big and how many rounds each comparison is, full and quick. */
import { jsonRpc } from './comparisons/json-rpc.ts';
import { restOverhead } from './comparisons/rest-overhead.ts';
import { solanaScale } from './comparisons/solana-scale.ts';
import { webhookIntake } from './comparisons/webhook-intake.ts';
import { weight } from './comparisons/weight.ts';
import type { Comparison } from './report.ts';

export async function runComparison(id: string, quick: boolean): Promise<Comparison> {
  switch (id) {
    case 'rest-overhead':
      return restOverhead(
        quick ? { calls: 1000, rounds: 2, warmup: 1 } : { calls: 5000, rounds: 9, warmup: 1 },
      );
    case 'solana-scale':
      return solanaScale(
        quick ? { addresses: 2000, rounds: 2, warmup: 1 } : { addresses: 10_000, rounds: 9, warmup: 1 },
      );
    case 'json-rpc':
      return jsonRpc(
        quick
          ? { blocks: 40, transactionsPerBlock: 10, rounds: 2, warmup: 1 }
          : { blocks: 300, transactionsPerBlock: 10, rounds: 15, warmup: 1 },
      );
    case 'webhook-intake':
      return webhookIntake(
        quick
          ? { evmDeliveries: 50, bitcoinDeliveries: 4, bitcoinTransactions: 3000, rounds: 2, warmup: 1 }
          : { evmDeliveries: 400, bitcoinDeliveries: 30, bitcoinTransactions: 3000, rounds: 9, warmup: 1 },
      );
    case 'weight':
      return weight();
    default:
      throw new Error(`no plan for ${id}`);
  }
}
