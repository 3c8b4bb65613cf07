import { randomUUID } from 'node:crypto';
import {
  bitcoinStreamConfigShape,
  type createBitcoinStreamOperation,
  type deleteBitcoinStreamOperation,
  type setBitcoinStreamStatusOperation,
  type updateBitcoinStreamOperation,
  webhookUrlProblem,
} from '@blockwire/streams/operations';
import type { DeliveryEngine } from '../delivery/engine.js';
import { badRequest, type HandlerInput as In, notFound } from '../handlers/define.js';
import type { BitcoinStreamRecord, StreamsState } from './state.js';
import { now, STATUS_MESSAGES } from './status.js';
import type { WatchIndex } from './watch.js';

/** The settings an update may change: the stream configuration the operations own, but the network (always mainnet). */
const UPDATABLE = Object.keys(bitcoinStreamConfigShape).filter((field) => field !== 'network') as Exclude<
  keyof typeof bitcoinStreamConfigShape,
  'network'
>[];

/**
 * The Bitcoin streams themselves: create, update, pause and resume, delete, the verification
 * POST, and a stream's status when its deliveries fail.
 */
export class BitcoinStreams {
  constructor(
    private readonly state: StreamsState,
    private readonly watch: WatchIndex,
    private readonly engine: DeliveryEngine,
    /** Enforce the real service's rule: webhook targets must be public HTTPS endpoints. */
    private readonly strictWebhooks: boolean,
  ) {}

  async createBitcoinStream(input: In<typeof createBitcoinStreamOperation>) {
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

  async updateBitcoinStream(input: In<typeof updateBitcoinStreamOperation>) {
    const stream = this.requireStream(input.id);
    if (input.webhookUrl !== undefined) this.checkWebhookUrl(input.webhookUrl);
    for (const field of UPDATABLE) {
      if (input[field] !== undefined) Object.assign(stream, { [field]: input[field] });
    }
    stream.updatedAt = now();
    await this.verify(stream);
    return this.streamJson(stream);
  }

  async setBitcoinStreamStatus(input: In<typeof setBitcoinStreamStatusOperation>) {
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

  deleteBitcoinStream(input: In<typeof deleteBitcoinStreamOperation>) {
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

  setError(stream: BitcoinStreamRecord, message: string): void {
    if (stream.status !== 'error') stream.isErrorSince = now();
    stream.status = 'error';
    stream.statusMessage = message;
    stream.updatedAt = now();
    this.engine.cancel(stream.id);
  }

  bitcoinStream(id: string): BitcoinStreamRecord | undefined {
    return this.state.bitcoinStreams.find((stream) => stream.id === id);
  }

  requireStream(id: string): BitcoinStreamRecord {
    const stream = this.bitcoinStream(id.toLowerCase());
    if (!stream) throw notFound(`id: no Bitcoin stream ${id}`);
    return stream;
  }

  streamJson(stream: BitcoinStreamRecord) {
    const { createdAt: _createdAt, ...fields } = stream;
    return {
      ...fields,
      network: [...fields.network],
      amountOfAddresses: this.state.addresses[stream.id]?.length ?? 0,
    };
  }

  private checkWebhookUrl(webhookUrl: string): void {
    const problem = webhookUrlProblem(webhookUrl, { requirePublicHttps: this.strictWebhooks });
    if (problem) throw badRequest(problem);
  }
}
