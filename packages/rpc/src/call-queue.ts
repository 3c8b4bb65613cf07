import { type Client, chunk, decideRetry, parseRetryAfter } from '@blockwire/core/operations';
import { unsafeToRepeat } from './call-kinds.js';
import type { BatchOptions } from './client-options.js';
import { type CallSite, matchReplies, readReply, type SentCall } from './replies.js';

/** JSON-RPC error code of "limit exceeded" (EIP-1474): retried with backoff like an HTTP 429. */
export const LIMIT_EXCEEDED = -32005;

/**
 * The waits a JSON-RPC client needs: the batch window and the pause before a rate-limited call
 * goes again. `createRpcClient` uses the runtime's timers; a host that forbids them (an n8n node)
 * gives its own.
 */
export interface RpcTimers {
  /** Runs `run` after `ms`; the function returned cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Waits at least `ms` (never less: it may be a Retry-After). */
  sleep(ms: number): Promise<void>;
}

/**
 * One JSON-RPC call waiting for its answer, settled once: by its result, an error, or its caller
 * giving up. A class, not an object of closures: a batch of blocks has hundreds of these waiting
 * at once, and what each one holds is copied by every collection that falls before its answer.
 */
class PendingCall implements SentCall {
  id: number;
  readonly method: string;
  readonly params: unknown;
  readonly operation: string;
  readonly signal: AbortSignal | undefined;
  attempts = 1;
  settled = false;
  readonly #resolve: (result: unknown) => void;
  readonly #reject: (error: unknown) => void;
  readonly #onAbort: (() => void) | undefined;
  readonly #onEnd: (() => void) | undefined;

  constructor(
    id: number,
    { method, params, operation, signal }: Pick<PendingCall, 'method' | 'params' | 'operation' | 'signal'>,
    resolve: (result: unknown) => void,
    reject: (error: unknown) => void,
    onEnd: (() => void) | undefined,
  ) {
    this.id = id;
    this.method = method;
    this.params = params;
    this.operation = operation;
    this.signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#onEnd = onEnd;
    if (signal) {
      this.#onAbort = () => this.fail(signal.reason);
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  succeed(result: unknown): void {
    if (this.#end()) this.#resolve(result);
  }

  fail(error: unknown): void {
    if (this.#end()) this.#reject(error);
  }

  /** Whether this call was still waiting (it is not any more). */
  #end(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.#onAbort) this.signal?.removeEventListener('abort', this.#onAbort);
    this.#onEnd?.();
    return true;
  }
}

export interface CallQueueSetup {
  client: Client;
  /** The chain's path on the node interface. */
  path: string;
  /** Where errors say the call went. */
  where: CallSite;
  /** Gather calls into batches of this shape, or send each alone. */
  batch: Required<BatchOptions> | undefined;
  timers: RpcTimers;
}

/**
 * Sends JSON-RPC calls to the node: gathers those made together into batches, matches each
 * answer to its call by id, and sends a rate-limited call again after a pause. The function
 * returned sends one call and resolves to its result.
 */
export function createCallQueue({ client, path, where, batch, timers }: CallQueueSetup) {
  let nextId = 1;
  let queue: PendingCall[] = [];
  let cancelWait: (() => void) | undefined;

  function enqueue(call: PendingCall): void {
    if (!batch) {
      void send([call]);
      return;
    }
    queue.push(call);
    if (queue.length >= batch.maxSize) flush();
    else cancelWait ??= timers.after(batch.waitMs, flush);
  }

  function flush(): void {
    cancelWait?.();
    cancelWait = undefined;
    const calls = queue.filter((call) => !call.settled);
    queue = [];
    for (const group of chunk(calls, batch?.maxSize ?? 1)) void send(group);
  }

  async function send(calls: PendingCall[]): Promise<void> {
    const envelope = (call: PendingCall) => ({
      jsonrpc: '2.0',
      id: call.id,
      method: call.method,
      params: call.params,
    });
    const single = calls.length === 1 ? calls[0] : undefined;
    // A batch is shared: one caller giving up must not cancel the others' request, but once all
    // of them have, nobody waits for the answer any more.
    const batchAbort = single || !calls.some((call) => call.signal) ? undefined : new AbortController();
    const onCallerAbort = () => {
      if (calls.every((call) => call.settled))
        batchAbort?.abort(new Error('every caller of the batch gave up'));
    };
    if (batchAbort) for (const call of calls) call.signal?.addEventListener('abort', onCallerAbort);
    let response: Awaited<ReturnType<Client['request']>>;
    const idempotent = calls.every((call) => !unsafeToRepeat(call.method));
    // An answer that cannot be read leaves a state-changing call's outcome unknown.
    const unreadable = { ...where, outcomeUnknown: !idempotent };
    try {
      response = await client.request({
        api: 'node',
        method: 'POST',
        path,
        // A lone call goes as a plain object: some nodes treat a batch of one differently.
        body: single ? envelope(single) : calls.map(envelope),
        idempotent,
        signal: single ? single.signal : batchAbort?.signal,
        operation: single ? single.operation : `JSON-RPC batch of ${calls.length}`,
      });
    } catch (error) {
      for (const call of calls) call.fail(error);
      return;
    } finally {
      for (const call of calls) call.signal?.removeEventListener('abort', onCallerAbort);
    }
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    for (const match of matchReplies(calls, response.data, response.attempts, unreadable)) {
      if ('error' in match) match.call.fail(match.error);
      else answer(match.call, match.reply, response.attempts, retryAfterMs);
    }
  }

  function answer(call: PendingCall, reply: unknown, httpAttempts: number, retryAfterMs: number | undefined) {
    if (call.settled) return;
    const outcome = readReply(call, reply, httpAttempts, where, client.redact);
    if ('result' in outcome) {
      call.succeed(outcome.result);
      return;
    }
    if ('error' in outcome) {
      call.fail(outcome.error);
      return;
    }
    if (outcome.rpcError.code === LIMIT_EXCEEDED) {
      const decision = decideRetry({
        attempt: call.attempts,
        outcome: { kind: 'status', status: 429, retryAfterMs },
        idempotent: true,
        options: client.retry,
      });
      if (decision.retry) {
        void retryLater(call, decision.delayMs);
        return;
      }
    }
    call.fail(outcome.rpcError);
  }

  async function retryLater(call: PendingCall, delayMs: number): Promise<void> {
    // Never early: the wait may be a Retry-After (a caller who gives up settles the call meanwhile).
    await timers.sleep(delayMs);
    if (call.settled) return;
    call.attempts += 1;
    call.id = nextId++;
    enqueue(call);
  }

  /** Sends one call and resolves to its result; `onEnd` runs when it has settled, before its callers hear. */
  return function enqueueCall(
    method: string,
    params: unknown,
    operation: string,
    signal: AbortSignal | undefined,
    onEnd?: () => void,
  ): Promise<unknown> {
    signal?.throwIfAborted();
    return new Promise<unknown>((resolve, reject) => {
      const call = new PendingCall(nextId++, { method, params, operation, signal }, resolve, reject, onEnd);
      try {
        enqueue(call);
      } catch (error) {
        // A host's timer that throws: the call fails, and still ends (onEnd).
        call.fail(error);
      }
    });
  };
}
