import { operations, signBody } from '@blockwire/streams/operations';
import { BitcoinSimulator } from '../bitcoin/simulator.js';
import { DeliveryEngine, type DeliveryOptions } from '../delivery/engine.js';
import type { DeliveryFault } from '../faults.js';
import { defineRoutes, type Route } from '../handlers/define.js';
import { BitcoinStreams } from './bitcoin-streams.js';
import { CONFIRMATION_DEPTH, StreamDeliveries } from './deliveries.js';
import { updateEvmStreamStatus, updateSettings } from './evm-and-settings.js';
import { MinedBlocks } from './mined-blocks.js';
import { page } from './paging.js';
import { type SimulatorControl, simulatorControl } from './simulator-control.js';
import { initialState, type StreamsState } from './state.js';
import { WatchIndex } from './watch.js';
import { WatchedAddresses } from './watched-addresses.js';

// The service's jobs live beside it: the streams (bitcoin-streams), what they watch
// (watched-addresses), mined blocks asked for (mined-blocks), deliveries of what the simulated
// network does (deliveries), EVM status and settings (evm-and-settings), the control routes
// (simulator-control). This file wires them to one state and lists the routes.
export { CONFIRMATION_DEPTH } from './deliveries.js';

export interface StreamsServiceOptions {
  seed: number;
  /** Enforce the real service's rule: webhook targets must be public HTTPS endpoints. */
  strictWebhooks: boolean;
  delivery?: DeliveryOptions;
  /** Asked once per delivery attempt: whether the network loses it, and how (fault injection). */
  deliveryFault?: () => DeliveryFault | undefined;
  /** A snapshot to start from (what `snapshot()` returned earlier). */
  state?: StreamsState;
  /**
   * Called when the state changes outside a request: a stream put in `error` by failed deliveries,
   * an xpub's gap window moved by a payment. Lets a state file follow.
   */
  onChange?: () => void;
}

export interface StreamsService {
  /** One route for each operation of `@blockwire/streams`. */
  readonly routes: readonly Route[];
  control: SimulatorControl;
  snapshot(): StreamsState;
  close(): Promise<void>;
}

export function createStreamsService(options: StreamsServiceOptions): StreamsService {
  return new Streams(options);
}

export class Streams implements StreamsService {
  private readonly state: StreamsState;
  private readonly watch: WatchIndex;
  /** The simulated network (exposed for tests and for the control routes). */
  readonly simulator: BitcoinSimulator;
  readonly engine: DeliveryEngine;
  private readonly streams: BitcoinStreams;
  private readonly deliveries: StreamDeliveries;
  readonly routes: readonly Route[];
  readonly control: StreamsService['control'];

  constructor(private readonly options: StreamsServiceOptions) {
    // A state file from an older run may lack newer fields: fill them from the defaults.
    this.state = { ...initialState(options.seed), ...(options.state ? structuredClone(options.state) : {}) };
    this.watch = new WatchIndex(this.state, () => this.options.onChange?.());
    const chain = this.state.bitcoinChain;
    this.simulator = new BitcoinSimulator({ seed: options.seed, ...(chain ? { resume: chain } : {}) });
    this.engine = new DeliveryEngine(
      {
        target: (streamId) => {
          const stream = this.streams.bitcoinStream(streamId);
          if (stream?.status !== 'active') return undefined;
          return { webhookUrl: stream.webhookUrl, secret: this.state.settings.secretKey };
        },
        sign: signBody,
        failed: (streamId, message) => {
          const stream = this.streams.bitcoinStream(streamId);
          if (!stream) return;
          this.streams.setError(stream, message);
          this.options.onChange?.();
        },
        fault: () => this.options.deliveryFault?.(),
      },
      options.delivery,
    );
    this.streams = new BitcoinStreams(this.state, this.watch, this.engine, options.strictWebhooks);
    this.deliveries = new StreamDeliveries(this.state, this.watch, this.simulator, this.engine);
    const watched = new WatchedAddresses(this.state, this.watch, this.streams);
    const blocks = new MinedBlocks(this.simulator, this.watch, this.engine, this.streams);
    this.control = simulatorControl(this.simulator, this.engine);
    this.simulator.subscribe({
      mempool: (tx) => this.deliveries.onMempool(tx),
      evicted: (txid) => this.deliveries.evicted(txid),
      block: (block) => this.deliveries.onBlock(block),
    });
    this.routes = defineRoutes(operations, {
      updateEvmStreamStatus: (input) => updateEvmStreamStatus(this.state, input),
      updateSettings: (input) => updateSettings(this.state, input),
      createBitcoinStream: (input) => this.streams.createBitcoinStream(input),
      updateBitcoinStream: (input) => this.streams.updateBitcoinStream(input),
      setBitcoinStreamStatus: (input) => this.streams.setBitcoinStreamStatus(input),
      listBitcoinStreams: (input) => {
        const listed = page(this.state.bitcoinStreams, input);
        return { ...listed, result: listed.result.map((stream) => this.streams.streamJson(stream)) };
      },
      getBitcoinStream: (input) => this.streams.streamJson(this.streams.requireStream(input.id)),
      deleteBitcoinStream: (input) => this.streams.deleteBitcoinStream(input),
      getBitcoinBlockWebhookData: (input) => blocks.blockWebhookData(input),
      replayBitcoinBlock: (input) => blocks.replayBitcoinBlock(input),
      listBitcoinStreamAddresses: (input) => {
        const stream = this.streams.requireStream(input.id);
        return page(this.state.addresses[stream.id] ?? [], input);
      },
      addBitcoinStreamAddress: (input) => watched.addAddress(input),
      removeBitcoinStreamAddress: (input) => watched.removeAddress(input),
      listBitcoinStreamXpubs: (input) => {
        const stream = this.streams.requireStream(input.id);
        const xpubs = page(this.state.xpubs[stream.id] ?? [], input);
        return { ...xpubs, result: xpubs.result.map((record) => watched.xpubJson(stream.id, record)) };
      },
      addBitcoinStreamXpub: (input) => watched.addXpub(input),
      removeBitcoinStreamXpub: (input) => watched.removeXpub(input),
    });
  }

  /** How much the service holds beyond its state (for tests of its memory bounds). */
  get retained(): BitcoinSimulator['retained'] & { mempoolDeliveries: number } {
    return { ...this.simulator.retained, mempoolDeliveries: this.deliveries.retained };
  }

  snapshot(): StreamsState {
    // The blocks a confirmation still needs: a restart mines on from the same tip.
    return { ...structuredClone(this.state), bitcoinChain: this.simulator.saveChain(CONFIRMATION_DEPTH + 1) };
  }

  async close(): Promise<void> {
    this.simulator.close();
    await this.engine.close();
  }
}
