import { randomUUID } from 'node:crypto';
import type { Operation } from '@blockwire/core';
import {
  addBitcoinStreamAddressOperation,
  addBitcoinStreamXpubOperation,
  bitcoinStreamConfigShape,
  createBitcoinStreamOperation,
  deleteBitcoinStreamOperation,
  getBitcoinBlockWebhookDataOperation,
  getBitcoinStreamOperation,
  listBitcoinStreamAddressesOperation,
  listBitcoinStreamsOperation,
  listBitcoinStreamXpubsOperation,
  removeBitcoinStreamAddressOperation,
  removeBitcoinStreamXpubOperation,
  replayBitcoinBlockOperation,
  setBitcoinStreamStatusOperation,
  signBody,
  updateBitcoinStreamOperation,
  updateEvmStreamStatusOperation,
  updateSettingsOperation,
  webhookUrlProblem,
} from '@blockwire/streams/operations';
import type * as z from 'zod/v4';
import { parseBtc } from '../bitcoin/amount.js';
import { BITCOIN_CHAIN_ID, blockPayload, mempoolPayload, type PayloadOptions } from '../bitcoin/payload.js';
import { scriptForAddress } from '../bitcoin/scripts.js';
import {
  type AddTransactionInput,
  BitcoinSimulator,
  type SimBlock,
  type SimTransaction,
} from '../bitcoin/simulator.js';
import { parseXpub } from '../bitcoin/xpub.js';
import {
  DeliveryEngine,
  type DeliveryOptions,
  type DeliveryRecord,
  type DeliveryTotals,
} from '../delivery/engine.js';
import type { DeliveryFault } from '../faults.js';
import { badRequest, defineHandler, notFound, type Route } from '../handlers/define.js';
import { page } from './paging.js';
import {
  type BitcoinStreamRecord,
  initialState,
  type StreamStatus,
  type StreamsState,
  type XpubRecord,
} from './state.js';
import { normalizeAddress, WatchIndex } from './watch.js';

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
  control: {
    addTransaction(input: AddTransactionInput): Promise<{ txid: string }>;
    mine(input: { blocks: number }): Promise<{ height: number }>;
    evict(input: { txid: string }): Promise<{ evicted: boolean }>;
    auto(input: { intervalMs: number }): Promise<{ intervalMs: number }>;
    /** The webhook delivery attempts (the most recent), and totals since the start or the last clear. */
    deliveries(): { totals: DeliveryTotals; deliveries: DeliveryRecord[] };
    clearDeliveries(): void;
  };
  snapshot(): StreamsState;
  close(): Promise<void>;
}

/** Blocks mined on top of a block before its confirmed delivery (the spec's confirmation depth). */
export const CONFIRMATION_DEPTH = 2;

const STATUS_MESSAGES: Record<StreamStatus, string> = {
  active: 'Stream is active',
  paused: 'Stream is paused',
  error: 'Stream is in error',
  terminated: 'Stream is terminated',
};

/** What a handler of this operation receives: its validated input. */
type In<O extends Operation> = z.output<O['input']>;

/** The settings an update may change: the stream configuration the operations own, but the network (always mainnet). */
const UPDATABLE = Object.keys(bitcoinStreamConfigShape).filter((field) => field !== 'network') as Exclude<
  keyof typeof bitcoinStreamConfigShape,
  'network'
>[];

export function createStreamsService(options: StreamsServiceOptions): StreamsService {
  return new Streams(options);
}

/**
 * The contract's EVM stream fields the seeded streams leave unset, answered as the service
 * answers an unset one (a stream's reply carries every field of the contract).
 */
const EVM_STREAM_UNSET = { getNativeBalances: [], abi: null, advancedOptions: null, triggers: null };

export class Streams implements StreamsService {
  private readonly state: StreamsState;
  private readonly watch: WatchIndex;
  /** The simulated network (exposed for tests and for the control routes). */
  readonly simulator: BitcoinSimulator;
  readonly engine: DeliveryEngine;
  /**
   * Streams each mempool transaction was delivered to (at most once per stream and transaction).
   * Needed only until the transaction is confirmed or leaves the mempool unmined: then forgotten.
   */
  private readonly mempoolDelivered = new Map<string, Set<string>>();
  readonly routes: readonly Route[];

  constructor(private readonly options: StreamsServiceOptions) {
    // A state file from an older run may lack newer fields: fill them from the defaults.
    this.state = { ...initialState(options.seed), ...(options.state ? structuredClone(options.state) : {}) };
    this.watch = new WatchIndex(this.state, () => this.options.onChange?.());
    const chain = this.state.bitcoinChain;
    this.simulator = new BitcoinSimulator({ seed: options.seed, ...(chain ? { resume: chain } : {}) });
    this.engine = new DeliveryEngine(
      {
        target: (streamId) => {
          const stream = this.bitcoinStream(streamId);
          if (stream?.status !== 'active') return undefined;
          return { webhookUrl: stream.webhookUrl, secret: this.state.settings.secretKey };
        },
        sign: signBody,
        failed: (streamId, message) => {
          const stream = this.bitcoinStream(streamId);
          if (!stream) return;
          this.setError(stream, message);
          this.options.onChange?.();
        },
        fault: () => this.options.deliveryFault?.(),
      },
      options.delivery,
    );
    this.simulator.subscribe({
      mempool: (tx) => this.onMempool(tx),
      evicted: (txid) => this.mempoolDelivered.delete(txid),
      block: (block) => this.onBlock(block),
    });
    this.routes = [
      defineHandler(updateEvmStreamStatusOperation, (input) => this.updateEvmStreamStatus(input)),
      defineHandler(updateSettingsOperation, (input) => this.updateSettings(input)),
      defineHandler(createBitcoinStreamOperation, (input) => this.createBitcoinStream(input)),
      defineHandler(updateBitcoinStreamOperation, (input) => this.updateBitcoinStream(input)),
      defineHandler(setBitcoinStreamStatusOperation, (input) => this.setBitcoinStreamStatus(input)),
      defineHandler(listBitcoinStreamsOperation, (input) => {
        const streams = page(this.state.bitcoinStreams, input);
        return { ...streams, result: streams.result.map((stream) => this.streamJson(stream)) };
      }),
      defineHandler(getBitcoinStreamOperation, (input) => this.streamJson(this.requireStream(input.id))),
      defineHandler(deleteBitcoinStreamOperation, (input) => this.deleteBitcoinStream(input)),
      defineHandler(getBitcoinBlockWebhookDataOperation, (input) => this.blockWebhookData(input)),
      defineHandler(replayBitcoinBlockOperation, (input) => this.replayBitcoinBlock(input)),
      defineHandler(listBitcoinStreamAddressesOperation, (input) => {
        const stream = this.requireStream(input.id);
        return page(this.state.addresses[stream.id] ?? [], input);
      }),
      defineHandler(addBitcoinStreamAddressOperation, (input) => this.addAddress(input)),
      defineHandler(removeBitcoinStreamAddressOperation, (input) => this.removeAddress(input)),
      defineHandler(listBitcoinStreamXpubsOperation, (input) => {
        const stream = this.requireStream(input.id);
        const xpubs = page(this.state.xpubs[stream.id] ?? [], input);
        return { ...xpubs, result: xpubs.result.map((record) => this.xpubJson(stream.id, record)) };
      }),
      defineHandler(addBitcoinStreamXpubOperation, (input) => this.addXpub(input)),
      defineHandler(removeBitcoinStreamXpubOperation, (input) => this.removeXpub(input)),
    ];
  }

  readonly control: StreamsService['control'] = {
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
      return { txid: this.simulator.addTransaction(input).txid };
    },
    mine: async ({ blocks }) => {
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > 1000) {
        throw badRequest('blocks must be an integer from 1 to 1000');
      }
      this.simulator.mine(blocks);
      return { height: this.simulator.height };
    },
    evict: async ({ txid }) => ({ evicted: this.simulator.evict(txid) }),
    auto: async ({ intervalMs }) => {
      if (!Number.isInteger(intervalMs) || intervalMs < 0) {
        throw badRequest('intervalMs must be an integer >= 0 (0 stops)');
      }
      this.simulator.auto(intervalMs);
      return { intervalMs };
    },
    deliveries: () => ({ totals: { ...this.engine.totals }, deliveries: [...this.engine.log] }),
    clearDeliveries: () => this.engine.clearLog(),
  };

  /** How much the service holds beyond its state (for tests of its memory bounds). */
  get retained(): BitcoinSimulator['retained'] & { mempoolDeliveries: number } {
    let mempoolDeliveries = 0;
    for (const streams of this.mempoolDelivered.values()) mempoolDeliveries += streams.size;
    return { ...this.simulator.retained, mempoolDeliveries };
  }

  snapshot(): StreamsState {
    // The blocks a confirmation still needs: a restart mines on from the same tip.
    return { ...structuredClone(this.state), bitcoinChain: this.simulator.saveChain(CONFIRMATION_DEPTH + 1) };
  }

  async close(): Promise<void> {
    this.simulator.close();
    await this.engine.close();
  }

  // --- EVM and settings ---

  private updateEvmStreamStatus(input: In<typeof updateEvmStreamStatusOperation>) {
    const id = input.id.toLowerCase();
    const stream = this.state.evmStreams.find((candidate) => candidate.id === id);
    if (!stream) throw notFound(`id: no EVM stream ${input.id}`);
    const { status } = input;
    stream.status = status;
    stream.statusMessage = STATUS_MESSAGES[status];
    stream.updatedAt = now();
    return { ...EVM_STREAM_UNSET, ...stream };
  }

  private updateSettings(input: In<typeof updateSettingsOperation>) {
    if (input.region !== undefined) this.state.settings.region = input.region;
    if (input.secretKey !== undefined) this.state.settings.secretKey = input.secretKey;
    return { ...this.state.settings };
  }

  // --- Bitcoin streams ---

  private async createBitcoinStream(input: In<typeof createBitcoinStreamOperation>) {
    const { webhookUrl } = input;
    this.checkWebhookUrl(webhookUrl);
    const time = now();
    const stream: BitcoinStreamRecord = {
      id: randomUUID(),
      webhookUrl,
      description: input.description ?? '',
      tag: input.tag ?? '',
      network: input.network,
      includeInputs: input.includeInputs ?? false,
      includeOutputs: input.includeOutputs ?? false,
      allAddresses: input.allAddresses ?? false,
      demo: false,
      status: 'active',
      statusMessage: STATUS_MESSAGES.active,
      isErrorSince: null,
      createdAt: time,
      updatedAt: time,
    };
    this.state.bitcoinStreams.push(stream);
    await this.verify(stream);
    return this.streamJson(stream);
  }

  private async updateBitcoinStream(input: In<typeof updateBitcoinStreamOperation>) {
    const stream = this.requireStream(input.id);
    if (input.webhookUrl !== undefined) this.checkWebhookUrl(input.webhookUrl);
    for (const field of UPDATABLE) {
      if (input[field] !== undefined) Object.assign(stream, { [field]: input[field] });
    }
    stream.updatedAt = now();
    await this.verify(stream);
    return this.streamJson(stream);
  }

  private async setBitcoinStreamStatus(input: In<typeof setBitcoinStreamStatusOperation>) {
    const stream = this.requireStream(input.id);
    if (input.status === 'paused') {
      stream.status = 'paused';
      stream.statusMessage = STATUS_MESSAGES.paused;
      stream.updatedAt = now();
      this.engine.cancel(stream.id);
    } else if (stream.status !== 'active') {
      stream.status = 'active';
      await this.verify(stream);
    }
    return this.streamJson(stream);
  }

  private deleteBitcoinStream(input: In<typeof deleteBitcoinStreamOperation>) {
    const stream = this.requireStream(input.id);
    this.state.bitcoinStreams = this.state.bitcoinStreams.filter((candidate) => candidate.id !== stream.id);
    for (const record of this.state.xpubs[stream.id] ?? []) this.watch.forget(record.id);
    delete this.state.addresses[stream.id];
    delete this.state.xpubs[stream.id];
    this.engine.cancel(stream.id);
    return this.streamJson(stream);
  }

  /**
   * The verification POST on create, update and reactivation. A paused stream stays paused; an
   * active or failed one becomes active when the target answers 2xx, and `error` otherwise.
   */
  private async verify(stream: BitcoinStreamRecord): Promise<void> {
    const result = await this.engine.verify(stream.webhookUrl);
    if (!result.ok) {
      this.setError(stream, result.message);
      return;
    }
    if (stream.status !== 'paused') {
      stream.status = 'active';
      stream.statusMessage = STATUS_MESSAGES.active;
      stream.isErrorSince = null;
    }
    stream.updatedAt = now();
  }

  private setError(stream: BitcoinStreamRecord, message: string): void {
    if (stream.status !== 'error') stream.isErrorSince = now();
    stream.status = 'error';
    stream.statusMessage = message;
    stream.updatedAt = now();
    this.engine.cancel(stream.id);
  }

  // --- addresses and xpubs ---

  private addAddress(input: In<typeof addBitcoinStreamAddressOperation>) {
    const stream = this.requireStream(input.id);
    const address = normalizeAddress(input.address);
    this.state.addresses[stream.id] ??= [];
    const list = this.state.addresses[stream.id]!;
    if (!list.some((record) => record.address === address)) list.push({ address, createdAt: now() });
    stream.updatedAt = now();
    return { streamId: stream.id, address, amountOfAddresses: list.length };
  }

  private removeAddress(input: In<typeof removeBitcoinStreamAddressOperation>) {
    const stream = this.requireStream(input.id);
    const address = normalizeAddress(input.address);
    const list = this.state.addresses[stream.id] ?? [];
    const index = list.findIndex((record) => record.address === address);
    if (index === -1) throw notFound(`address: ${address} is not watched by stream ${stream.id}`);
    list.splice(index, 1);
    stream.updatedAt = now();
    return { streamId: stream.id, address, amountOfAddresses: list.length };
  }

  private addXpub(input: In<typeof addBitcoinStreamXpubOperation>) {
    const stream = this.requireStream(input.id);
    const { xpub } = input;
    let key: ReturnType<typeof parseXpub>;
    try {
      key = parseXpub(xpub);
    } catch (error) {
      throw badRequest(`xpub ${(error as Error).message}`);
    }
    this.state.xpubs[stream.id] ??= [];
    const list = this.state.xpubs[stream.id]!;
    let record = list.find((candidate) => candidate.xpub === xpub);
    if (!record) {
      record = {
        id: randomUUID(),
        xpub,
        addressType: key.addressType,
        gap: 20,
        used: [0, 0],
        createdAt: now(),
      };
      list.push(record);
      stream.updatedAt = now();
    }
    return this.xpubJson(stream.id, record);
  }

  private removeXpub(input: In<typeof removeBitcoinStreamXpubOperation>) {
    const stream = this.requireStream(input.id);
    const list = this.state.xpubs[stream.id] ?? [];
    const index = list.findIndex((record) => record.id === input.xpubId);
    if (index === -1) throw notFound(`xpubId: no xpub ${input.xpubId} on stream ${stream.id}`);
    const [record] = list.splice(index, 1);
    const json = this.xpubJson(stream.id, record!);
    this.watch.forget(record!.id);
    stream.updatedAt = now();
    return json;
  }

  private xpubJson(streamId: string, record: XpubRecord) {
    const derived = this.watch.derivedAddresses(record);
    return {
      id: record.id,
      streamId,
      xpub: record.xpub,
      addressType: record.addressType,
      gap: record.gap,
      createdAt: record.createdAt,
      receiveAddresses: derived.receive,
      changeAddresses: derived.change,
    };
  }

  // --- blocks ---

  private blockWebhookData(input: In<typeof getBitcoinBlockWebhookDataOperation>) {
    const block = this.requireBlock(input.chainId, input.blockNumber);
    const all: PayloadOptions = { streamId: '', tag: '', includeInputs: true, includeOutputs: true };
    return blockPayload(all, block, block.transactions, this.isConfirmed(block));
  }

  private replayBitcoinBlock(input: In<typeof replayBitcoinBlockOperation>) {
    const block = this.requireBlock(input.chainId, input.blockNumber);
    const stream = this.requireStream(input.streamId);
    if (stream.status !== 'active') {
      throw badRequest(
        `streamId: stream ${stream.id} is ${stream.status}; only an active stream receives deliveries`,
      );
    }
    const txs = block.transactions.filter((tx) => this.watch.matches(stream.id, stream.allAddresses, tx));
    const payload = blockPayload(this.payloadOptions(stream), block, txs, this.isConfirmed(block));
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

  // --- the delivery lifecycle ---

  private onMempool(tx: SimTransaction): void {
    for (const stream of this.state.bitcoinStreams) {
      if (stream.status !== 'active' || !this.watch.matches(stream.id, stream.allAddresses, tx)) continue;
      const delivered = this.mempoolDelivered.get(tx.txid) ?? new Set<string>();
      if (delivered.has(stream.id)) continue;
      this.mempoolDelivered.set(tx.txid, delivered.add(stream.id));
      const payload = mempoolPayload(this.payloadOptions(stream), tx);
      this.engine.enqueue(stream.id, (retries) => ({ ...payload, retries }));
    }
  }

  private onBlock(block: SimBlock): void {
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
    const payload = blockPayload(this.payloadOptions(stream), block, txs, confirmed);
    this.engine.enqueue(stream.id, (retries) => ({ ...payload, retries }));
  }

  // --- helpers ---

  private payloadOptions(stream: BitcoinStreamRecord): PayloadOptions {
    return {
      streamId: stream.id,
      tag: stream.tag,
      includeInputs: stream.includeInputs,
      includeOutputs: stream.includeOutputs,
    };
  }

  private bitcoinStream(id: string): BitcoinStreamRecord | undefined {
    return this.state.bitcoinStreams.find((stream) => stream.id === id);
  }

  private requireStream(id: string): BitcoinStreamRecord {
    const stream = this.bitcoinStream(id.toLowerCase());
    if (!stream) throw notFound(`id: no Bitcoin stream ${id}`);
    return stream;
  }

  private streamJson(stream: BitcoinStreamRecord) {
    const { createdAt: _createdAt, ...fields } = stream;
    return {
      ...fields,
      network: [...fields.network],
      amountOfAddresses: this.state.addresses[stream.id]?.length ?? 0,
    };
  }

  private checkWebhookUrl(webhookUrl: string): void {
    const problem = webhookUrlProblem(webhookUrl, { requirePublicHttps: this.options.strictWebhooks });
    if (problem) throw badRequest(problem);
  }
}

function now(): string {
  return new Date().toISOString();
}
