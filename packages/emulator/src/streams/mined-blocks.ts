import type {
  getBitcoinBlockWebhookDataOperation,
  replayBitcoinBlockOperation,
} from '@blockwire/streams/operations';
import { BITCOIN_CHAIN_ID, blockPayload, type PayloadOptions } from '../bitcoin/payload.js';
import type { BitcoinSimulator, SimBlock } from '../bitcoin/simulator.js';
import type { DeliveryEngine } from '../delivery/engine.js';
import { badRequest, type HandlerInput as In, notFound } from '../handlers/define.js';
import type { BitcoinStreams } from './bitcoin-streams.js';
import { CONFIRMATION_DEPTH, payloadOptions } from './deliveries.js';
import type { WatchIndex } from './watch.js';

/** The blocks already mined, asked for: a block's webhook data, and a block sent again to a stream. */
export class MinedBlocks {
  constructor(
    private readonly simulator: BitcoinSimulator,
    private readonly watch: WatchIndex,
    private readonly engine: DeliveryEngine,
    private readonly streams: BitcoinStreams,
  ) {}

  blockWebhookData(input: In<typeof getBitcoinBlockWebhookDataOperation>) {
    const block = this.requireBlock(input.chainId, input.blockNumber);
    const all: PayloadOptions = { streamId: '', tag: '', includeInputs: true, includeOutputs: true };
    return blockPayload(all, block, block.transactions, this.isConfirmed(block));
  }

  replayBitcoinBlock(input: In<typeof replayBitcoinBlockOperation>) {
    const block = this.requireBlock(input.chainId, input.blockNumber);
    const stream = this.streams.requireStream(input.streamId);
    if (stream.status !== 'active') {
      throw badRequest(
        `streamId: stream ${stream.id} is ${stream.status}; only an active stream receives deliveries`,
      );
    }
    const txs = block.transactions.filter((tx) => this.watch.matches(stream.id, stream.allAddresses, tx));
    const payload = blockPayload(payloadOptions(stream), block, txs, this.isConfirmed(block));
    this.engine.enqueue(stream.id, (retries) => ({ ...payload, retries }));
    return {
      streamId: stream.id,
      chainId: BITCOIN_CHAIN_ID,
      blockNumber: block.height,
      confirmed: payload.confirmed,
      transactionCount: txs.length,
    };
  }

  private requireBlock(chainId: string, blockNumber: number): SimBlock {
    if (chainId !== BITCOIN_CHAIN_ID) throw badRequest(`chainId must be ${BITCOIN_CHAIN_ID}`);
    const block = this.simulator.blockAt(blockNumber);
    if (!block) {
      throw notFound(
        `blockNumber: no block ${blockNumber}; the chain holds blocks ${this.simulator.firstHeight} to ${this.simulator.height}`,
      );
    }
    return block;
  }

  private isConfirmed(block: SimBlock): boolean {
    return this.simulator.height - block.height >= CONFIRMATION_DEPTH;
  }
}
