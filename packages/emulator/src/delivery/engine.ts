/**
 * Webhook delivery: signed POSTs, per-stream order, retries with backoff, and the verification POST.
 * Receiver failures are observed (real HTTP to the real target), never simulated; only the network
 * between sender and receiver can be made to lose attempts (`DeliveryHooks.fault`).
 */
import type { DeliveryFault } from '../faults.js';

export interface DeliveryOptions {
  /**
   * Waits before each retry; its length bounds the retries. After the last one fails the stream
   * goes to `error`. Default: 500 ms, 1 s, 2 s, 4 s, 8 s (6 attempts within ~16 s).
   */
  retryDelaysMs?: number[];
  /** Per-request timeout of a delivery. Default 10 s. */
  timeoutMs?: number;
  /** Timeout of the verification POST, which the create/update call waits for. Default 5 s. */
  verificationTimeoutMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_VERIFICATION_TIMEOUT_MS = 5_000;
const LOST_REQUEST: { status?: number; error: string } = { error: 'request lost (injected fault)' };

export interface DeliveryHooks {
  /** Current target and secret of a stream, or undefined when it must get nothing (paused, error, deleted). */
  target(streamId: string): { webhookUrl: string; secret: string } | undefined;
  /** Signs the exact body sent: `0x` + keccak256(JSON.stringify(body) + secret). */
  sign(body: unknown, secret: string): Promise<string>;
  /** Every attempt failed: the stream must leave `active`. */
  failed(streamId: string, message: string): void;
  /** Whether the network loses this attempt (injected fault), and how; asked once per attempt. */
  fault?(): DeliveryFault | undefined;
}

/** One delivery attempt. */
export interface DeliveryRecord {
  /** Number of the delivery (one payload to one stream), from 1; its attempts share it. */
  delivery: number;
  streamId: string;
  url: string;
  /** Attempts before this one, as the payload's `retries`. */
  retries: number;
  /** ISO time the attempt started. */
  time: string;
  /** What the receiver answered; none when no answer came (or the request was lost). */
  status?: number;
  error?: string;
  /** Whether this attempt ended the delivery: the sender got 200. */
  delivered: boolean;
  /** The injected fault, if any: `lost-answer` keeps the receiver's `status`, but the sender never saw it. */
  fault?: DeliveryFault;
}

/** Counts since the start (or the last `clearLog`), unbounded by the log's length. */
export interface DeliveryTotals {
  attempts: number;
  /** Deliveries that got 200. */
  delivered: number;
  /** Deliveries that ran out of attempts (their stream went to `error`). */
  exhausted: number;
  lostRequest: number;
  lostAnswer: number;
}

/** The attempt log keeps the most recent attempts only, so a long-running emulator does not grow. */
export const DELIVERY_LOG_LIMIT = 10_000;

const noTotals = (): DeliveryTotals => ({
  attempts: 0,
  delivered: 0,
  exhausted: 0,
  lostRequest: 0,
  lostAnswer: 0,
});

interface Job {
  id: number;
  /** Builds the body for an attempt; `retries` is how many attempts came before. */
  body(retries: number): unknown;
}

interface Queue {
  jobs: Job[];
  running: Promise<void> | undefined;
}

export class DeliveryEngine {
  private readonly queues = new Map<string, Queue>();
  private readonly closing = new AbortController();
  private readonly retryDelaysMs: number[];
  private readonly timeoutMs: number;
  private readonly verificationTimeoutMs: number;
  private deliveries = 0;
  /** Every attempt made, oldest first (the last `DELIVERY_LOG_LIMIT`), for tests and debugging. */
  readonly log: DeliveryRecord[] = [];
  readonly totals: DeliveryTotals = noTotals();

  constructor(
    private readonly hooks: DeliveryHooks,
    options: DeliveryOptions = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.verificationTimeoutMs = options.verificationTimeoutMs ?? DEFAULT_VERIFICATION_TIMEOUT_MS;
  }

  /** Queues a delivery behind the stream's earlier ones, so a stream sees its stages in order. */
  enqueue(streamId: string, body: (retries: number) => unknown): void {
    if (this.closing.signal.aborted) return;
    let queue = this.queues.get(streamId);
    if (!queue) {
      queue = { jobs: [], running: undefined };
      this.queues.set(streamId, queue);
    }
    queue.jobs.push({ id: ++this.deliveries, body });
    // Nobody awaits a queue: a hook that throws must end up in the log, not as an unhandled rejection.
    if (!queue.running) {
      queue.running = this.drain(streamId, queue).catch((error: unknown) =>
        console.error(`[blockwire-emulator] deliveries to stream ${streamId} stopped:`, error),
      );
    }
  }

  /** Drops what a stream has queued (deleted, paused, or in error). */
  cancel(streamId: string): void {
    const queue = this.queues.get(streamId);
    if (queue) queue.jobs.length = 0;
  }

  /** Empties the attempt log and zeroes the totals; delivery numbers keep counting. */
  clearLog(): void {
    this.log.length = 0;
    Object.assign(this.totals, noTotals());
  }

  /** Resolves when every queue is empty (tests use it). */
  async idle(): Promise<void> {
    while (true) {
      const running = [...this.queues.values()].map((queue) => queue.running).filter(Boolean);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  /**
   * The verification POST: an empty body, so nothing to sign. Any 2xx passes; otherwise the
   * message says what the target answered.
   */
  async verify(webhookUrl: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const result = await this.post(webhookUrl, '', undefined, this.verificationTimeoutMs);
    if (result.status !== undefined && result.status >= 200 && result.status < 300) return { ok: true };
    return {
      ok: false,
      message:
        result.status === undefined
          ? `Verification POST to ${webhookUrl} failed: ${result.error}`
          : `Verification POST to ${webhookUrl} was answered ${result.status}; the receiver must answer 200`,
    };
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const queue of this.queues.values()) queue.jobs.length = 0;
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.running));
  }

  private async drain(streamId: string, queue: Queue): Promise<void> {
    try {
      while (queue.jobs.length > 0 && !this.closing.signal.aborted) {
        const job = queue.jobs.shift()!;
        const delivered = await this.deliver(streamId, job);
        if (!delivered) queue.jobs.length = 0;
      }
    } finally {
      queue.running = undefined;
      if (queue.jobs.length === 0) this.queues.delete(streamId);
    }
  }

  /** Tries a job until it gets 200; false when the stream must stop receiving. */
  private async deliver(streamId: string, job: Job): Promise<boolean> {
    let last = '';
    for (let retries = 0; retries <= this.retryDelaysMs.length; retries++) {
      if (retries > 0 && !(await this.sleep(this.retryDelaysMs[retries - 1]!))) return false;
      // Checked on every attempt: a stream paused or deleted meanwhile gets nothing more.
      const target = this.hooks.target(streamId);
      if (!target) return false;
      const time = new Date().toISOString();
      const fault = this.hooks.fault?.();
      const result = fault === 'lost-request' ? LOST_REQUEST : await this.attempt(target, job.body(retries));
      const delivered = result.status === 200 && fault !== 'lost-answer';
      this.record({
        delivery: job.id,
        streamId,
        url: target.webhookUrl,
        retries,
        time,
        ...result,
        delivered,
        ...(fault ? { fault } : {}),
      });
      if (delivered) return true;
      last =
        fault === 'lost-answer'
          ? 'answer lost (injected fault)'
          : result.status === undefined
            ? (result.error ?? 'no answer')
            : `HTTP ${result.status}`;
    }
    if (this.closing.signal.aborted) return false;
    this.totals.exhausted++;
    this.hooks.failed(
      streamId,
      `Webhook delivery failed after ${this.retryDelaysMs.length + 1} attempts (last: ${last}); the receiver must answer 200`,
    );
    return false;
  }

  private async attempt(
    target: { webhookUrl: string; secret: string },
    body: unknown,
  ): Promise<{ status?: number; error?: string }> {
    const signature = await this.hooks.sign(body, target.secret);
    return this.post(target.webhookUrl, JSON.stringify(body), signature, this.timeoutMs);
  }

  private async post(
    url: string,
    body: string,
    signature: string | undefined,
    timeoutMs: number,
  ): Promise<{ status?: number; error?: string }> {
    // One controller per attempt, unhooked from the long-lived closing signal when the attempt ends:
    // AbortSignal.any would keep every attempt's combined signal alive until the emulator closes.
    const attempt = new AbortController();
    const abort = () => attempt.abort(this.closing.signal.reason);
    const timer = setTimeout(() => attempt.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    this.closing.signal.addEventListener('abort', abort, { once: true });
    if (this.closing.signal.aborted) abort();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'blockwire-emulator',
          ...(signature ? { 'x-signature': signature } : {}),
        },
        body,
        redirect: 'manual',
        signal: attempt.signal,
      });
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { error: cause ?? (error as Error).message };
    } finally {
      clearTimeout(timer);
      this.closing.signal.removeEventListener('abort', abort);
    }
  }

  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.closing.signal.aborted) return resolve(false);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.closing.signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      this.closing.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private record(entry: DeliveryRecord): void {
    this.totals.attempts++;
    if (entry.delivered) this.totals.delivered++;
    if (entry.fault === 'lost-request') this.totals.lostRequest++;
    if (entry.fault === 'lost-answer') this.totals.lostAnswer++;
    this.log.push(entry);
    if (this.log.length > DELIVERY_LOG_LIMIT) this.log.splice(0, this.log.length - DELIVERY_LOG_LIMIT);
  }
}
