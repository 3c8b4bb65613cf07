import { parseBtc } from '../bitcoin/amount.js';
import { scriptForAddress } from '../bitcoin/scripts.js';
import type { AddTransactionInput, BitcoinSimulator } from '../bitcoin/simulator.js';
import type { DeliveryEngine, DeliveryRecord, DeliveryTotals } from '../delivery/engine.js';
import { badRequest } from '../handlers/define.js';

/** What the control routes can do: drive the simulated network, read and clear the delivery log. */
export interface SimulatorControl {
  addTransaction(input: AddTransactionInput): Promise<{ txid: string }>;
  mine(input: { blocks: number }): Promise<{ height: number }>;
  evict(input: { txid: string }): Promise<{ evicted: boolean }>;
  auto(input: { intervalMs: number }): Promise<{ intervalMs: number }>;
  /** The webhook delivery attempts (the most recent), and totals since the start or the last clear. */
  deliveries(): { totals: DeliveryTotals; deliveries: DeliveryRecord[] };
  clearDeliveries(): void;
}

/** The control routes' side of the service: driving the simulated network, reading the delivery log. */
export function simulatorControl(simulator: BitcoinSimulator, engine: DeliveryEngine): SimulatorControl {
  return {
    addTransaction: async (input) => {
      const problem = (field: string, check: () => unknown) => {
        try {
          check();
        } catch (error) {
          if (error instanceof RangeError) throw badRequest(`${field} ${error.message}`);
          throw error;
        }
      };
      problem('to', () => scriptForAddress(String(input.to)));
      if (input.from !== undefined) problem('from', () => scriptForAddress(String(input.from)));
      problem('amountBtc', () => parseBtc(input.amountBtc));
      return { txid: simulator.addTransaction(input).txid };
    },
    mine: async ({ blocks }) => {
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > 1000) {
        throw badRequest('blocks must be an integer from 1 to 1000');
      }
      simulator.mine(blocks);
      return { height: simulator.height };
    },
    evict: async ({ txid }) => ({ evicted: simulator.evict(txid) }),
    auto: async ({ intervalMs }) => {
      if (!Number.isInteger(intervalMs) || intervalMs < 0) {
        throw badRequest('intervalMs must be an integer >= 0 (0 stops)');
      }
      simulator.auto(intervalMs);
      return { intervalMs };
    },
    deliveries: () => ({ totals: { ...engine.totals }, deliveries: [...engine.log] }),
    clearDeliveries: () => engine.clearLog(),
  };
}
