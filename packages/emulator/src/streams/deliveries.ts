import { blockPayload, mempoolPayload, type PayloadOptions } from '../bitcoin/payload.js';
import type { BitcoinSimulator, SimBlock, SimTransaction } from '../bitcoin/simulator.js';
import type { DeliveryEngine } from '../delivery/engine.js';
import type { BitcoinStreamRecord, StreamsState } from './state.js';
import type { WatchIndex } from './watch.js';

/** Blocks mined on top of a block before its confirmed delivery (the spec's confirmation depth). */
export const CONFIRMATION_DEPTH = 2;

/**
 * What the simulated network sends to the active streams: each mempool transaction a stream
 * watches, once, and each new block with such transactions twice, unconfirmed at once and
 * confirmed CONFIRMATION_DEPTH blocks later.
 */
export class StreamDeliveries {
  /**
   * Streams each mempool transaction was delivered to (at most once per stream and transaction).
   * Needed only until the transaction is confirmed or leaves the mempool unmined: then forgotten.
   */
  private readonly mempoolDelivered = new Map<string, Set<string>>();

  constructor(
    private readonly state: StreamsState,
    private readonly watch: WatchIndex,
    private readonly simulator: BitcoinSimulator,
    private readonly engine: DeliveryEngine,
  ) {}

  /** A transaction left the mempool unmined: no delivery of it can follow. */
  evicted(txid: string): void {
    this.mempoolDelivered.delete(txid);
  }

  /** Mempool deliveries remembered (for tests of the service's memory bounds). */
  get retained(): number {
    let mempoolDeliveries = 0;
    for (const streams of this.mempoolDelivered.values()) mempoolDeliveries += streams.size;
    return mempoolDeliveries;
  }

  onMempool(tx: SimTransaction): void {
    for (const stream of this.state.bitcoinStreams) {
      if (stream.status !== 'active' || !this.watch.matches(stream.id, stream.allAddresses, tx)) continue;
      const delivered = this.mempoolDelivered.get(tx.txid) ?? new Set<string>();
      if (delivered.has(stream.id)) continue;
      this.mempoolDelivered.set(tx.txid, delivered.add(stream.id));
      const payload = mempoolPayload(payloadOptions(stream), tx);
      this.engine.enqueue(stream.id, (retries) => ({ ...payload, retries }));
    }
  }

  onBlock(block: SimBlock): void {
    const deep = this.simulator.blockAt(block.height - CONFIRMATION_DEPTH);
    for (const stream of this.state.bitcoinStreams) {
      if (stream.status !== 'active') continue;
      this.deliverBlock(stream, block, false);
      if (deep) this.deliverBlock(stream, deep, true);
    }
    // Confirmed: no mempool delivery can follow any more, for any stream (deleted ones included).
    for (const tx of deep?.transactions ?? []) this.mempoolDelivered.delete(tx.txid);
  }

  private deliverBlock(stream: BitcoinStreamRecord, block: SimBlock, confirmed: boolean): void {
    const txs = block.transactions.filter((tx) => this.watch.matches(stream.id, stream.allAddresses, tx));
    if (txs.length === 0) return;
    const payload = blockPayload(payloadOptions(stream), block, txs, confirmed);
    this.engine.enqueue(stream.id, (retries) => ({ ...payload, retries }));
  }
}

/** What a stream's payloads carry of the stream. */
export function payloadOptions(stream: BitcoinStreamRecord): PayloadOptions {
  return {
    streamId: stream.id,
    tag: stream.tag,
    includeInputs: stream.includeInputs,
    includeOutputs: stream.includeOutputs,
  };
}
