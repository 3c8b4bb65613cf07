/** What the simulated Bitcoin network holds: blocks, transactions, their inputs and outputs. */
import type { ScriptPubKey } from './scripts.js';

export interface SimInput {
  txid: string;
  vout: number;
  /** The spent output's address and value: known to the simulator, shown only in mempool payloads. */
  address: string | null;
  valueSats: bigint | null;
  sequence: number;
  scriptSigHex: string;
  witness: string[];
  /** Set on the coinbase input only. */
  coinbase?: string;
}

export interface SimOutput {
  n: number;
  valueSats: bigint;
  script: ScriptPubKey;
}

export interface SimTransaction {
  txid: string;
  version: number;
  locktime: number;
  vsize: number;
  size: number;
  weight: number;
  vin: SimInput[];
  vout: SimOutput[];
  feeSats: bigint;
  /** Simulated unix time at which the network first saw it. */
  seenAt: number;
}

export interface SimBlock {
  height: number;
  hash: string;
  previousBlockHash: string;
  timestamp: number;
  difficulty: number;
  bits: string;
  nonce: number;
  version: number;
  merkleRoot: string;
  size: number;
  transactions: SimTransaction[];
}
