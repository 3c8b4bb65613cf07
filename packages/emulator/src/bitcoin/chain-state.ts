/**
 * The simulated chain's recent blocks and mempool as JSON (satoshis as decimal strings), so a
 * state file can carry them: a restarted emulator mines on from the same tip, and transactions
 * seen before the restart still confirm.
 */
import type { SimBlock, SimInput, SimOutput, SimTransaction } from './sim-types.js';

type Sats<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? string | null : string };

export type SimTransactionJson = Omit<Sats<SimTransaction, 'feeSats'>, 'vin' | 'vout'> & {
  vin: Sats<SimInput, 'valueSats'>[];
  vout: Sats<SimOutput, 'valueSats'>[];
};

export interface ChainState {
  /** The last blocks, oldest first (enough to confirm what they hold). */
  blocks: (Omit<SimBlock, 'transactions'> & { transactions: SimTransactionJson[] })[];
  mempool: { tx: SimTransactionJson; lowFeeSince?: number }[];
  /** Added as mined: first seen in the next block. */
  pendingMined: SimTransactionJson[];
}

export function transactionToJson(tx: SimTransaction): SimTransactionJson {
  return {
    ...tx,
    feeSats: String(tx.feeSats),
    vin: tx.vin.map((input) => ({
      ...input,
      valueSats: input.valueSats === null ? null : String(input.valueSats),
    })),
    vout: tx.vout.map((output) => ({ ...output, valueSats: String(output.valueSats) })),
  };
}

export function transactionFromJson(tx: SimTransactionJson): SimTransaction {
  return {
    ...tx,
    feeSats: BigInt(tx.feeSats),
    vin: tx.vin.map((input) => ({
      ...input,
      valueSats: input.valueSats === null ? null : BigInt(input.valueSats),
    })),
    vout: tx.vout.map((output) => ({ ...output, valueSats: BigInt(output.valueSats) })),
  };
}
