/**
 * Webhook delivery: signed POSTs, per-stream order, retries with backoff, and the verification POST.
 * Receiver failures are observed (real HTTP to the real target), never simulated.
 */

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

export interface DeliveryHooks {
  /** Current target and secret of a stream, or undefined when it must get nothing (paused, error, deleted). */
  target(streamId: string): { webhookUrl: string; secret: string } | undefined;
  /** Signs the exact body sent: `0x` + keccak256(JSON.stringify(body) + secret). */
  sign(body: unknown, secret: string): Promise<string>;
  /** Every attempt failed: the stream must leave `active`. */
  failed(streamId: string, message: string): void;
}

export interface DeliveryRecord {
  streamId: string;
  url: string;
  retries: number;
  status: number | undefined;
  error?: string;
}

interface Job {
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
  /** Every attempt made, newest last (bounded), for tests and debugging. */
  readonly log: DeliveryRecord[] = [];

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
    queue.jobs.push({ body });
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
      const body = job.body(retries);
      const text = JSON.stringify(body);
      const signature = await this.hooks.sign(body, target.secret);
      const result = await this.post(target.webhookUrl, text, signature, this.timeoutMs);
      this.record({ streamId, url: target.webhookUrl, retries, ...result });
      if (result.status === 200) return true;
      last = result.status === undefined ? (result.error ?? 'no answer') : `HTTP ${result.status}`;
    }
    if (this.closing.signal.aborted) return false;
    this.hooks.failed(
      streamId,
      `Webhook delivery failed after ${this.retryDelaysMs.length + 1} attempts (last: ${last}); the receiver must answer 200`,
    );
    return false;
  }

  private async post(
    url: string,
    body: string,
    signature: string | undefined,
    timeoutMs: number,
  ): Promise<{ status: number | undefined; error?: string }> {
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
      return { status: undefined, error: cause ?? (error as Error).message };
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
    this.log.push(entry);
    if (this.log.length > 1000) this.log.splice(0, this.log.length - 1000);
  }
}
