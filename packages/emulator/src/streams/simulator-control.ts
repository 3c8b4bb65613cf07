import { parseBtc } from '../bitcoin/amount.js';
import { scriptForAddress } from '../bitcoin/scripts.js';
import type { BitcoinSimulator } from '../bitcoin/simulator.js';
import type { DeliveryEngine } from '../delivery/engine.js';
import { badRequest } from '../handlers/define.js';
import type { StreamsService } from './service.js';

/** The control routes' side of the service: driving the simulated network, reading the delivery log. */
export function simulatorControl(
  simulator: BitcoinSimulator,
  engine: DeliveryEngine,
): StreamsService['control'] {
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
