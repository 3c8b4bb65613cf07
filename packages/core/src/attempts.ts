/**
 * The attempts of one client that are in flight, and their timeout. Every attempt of a client
 * has the same timeout, so deadlines come in the order attempts start: they form a list that is
 * only ever appended to, and one timer, set for the oldest live deadline, serves all of them.
 * An attempt that ends leaves the list at once (it holds nothing after); when the timer fires, it
 * expires what is due and is set again for the next one. No timer, AbortController or listener
 * is made per attempt (a caller's own signal gets one listener, for as long as the attempt lasts).
 */
import { MAX_TIMER_MS } from './retry.js';
import {
  type AttemptHandle,
  AttemptTimeout,
  type DirectRequest,
  type TransportResponse,
} from './transport.js';

export { AttemptTimeout };

type Timer = ReturnType<typeof setTimeout> & { ref?(): unknown; unref?(): unknown };

export class InFlight {
  readonly #timeoutMs: number;
  #head: Attempt | undefined;
  #tail: Attempt | undefined;
  #timer: Timer | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Starts an attempt: `send` gets the handle to settle (and to set `onCancel` on). The promise
   * settles with the transport's answer, or rejects with an `AttemptTimeout` when the time is
   * up, or with the caller's abort reason: whichever comes first, however the transport behaves.
   */
  start(signal: AbortSignal | undefined, send: (attempt: AttemptHandle) => void): Promise<TransportResponse> {
    return this.#begin(signal, sendWith, send, undefined, undefined) as Promise<TransportResponse>;
  }

  /**
   * `start` for a built-in transport's direct request: the same, without a function made per
   * attempt to carry `request` to `direct`.
   */
  startDirect(
    signal: AbortSignal | undefined,
    direct: (request: DirectRequest, attempt: AttemptHandle) => void,
    request: DirectRequest,
  ): Promise<TransportResponse> {
    return this.#begin(signal, direct, request, undefined, undefined) as Promise<TransportResponse>;
  }

  /**
   * `startDirect` whose promise settles with what `followUp` makes of the answer (or of the
   * failure: a timeout, an abort, the transport's error) instead of the answer itself: what the
   * caller would do in a `then` is done where the attempt settles, without a promise and two
   * functions made per call for it. What `followUp` throws rejects the promise; what it returns
   * (a promise too) settles it.
   */
  startDirectThen<C, T>(
    signal: AbortSignal | undefined,
    direct: (request: DirectRequest, attempt: AttemptHandle) => void,
    request: DirectRequest,
    followUp: AttemptFollowUp<C, T>,
    context: C,
  ): Promise<T> {
    return this.#begin(
      signal,
      direct,
      request,
      followUp as AttemptFollowUp<unknown, unknown>,
      context,
    ) as Promise<T>;
  }

  #begin<R>(
    signal: AbortSignal | undefined,
    send: (request: R, attempt: AttemptHandle) => void,
    request: R,
    followUp: AttemptFollowUp<unknown, unknown> | undefined,
    context: unknown,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const attempt = new Attempt(this, signal, resolve, reject, followUp, context);
      this.#append(attempt);
      if (signal) {
        if (signal.aborted) return attempt.handleEvent();
        signal.addEventListener('abort', attempt);
      }
      try {
        send(request, attempt);
      } catch (error) {
        attempt.reject(error);
      }
    });
  }

  #append(attempt: Attempt): void {
    attempt.deadline = performance.now() + this.#timeoutMs;
    if (this.#tail) {
      this.#tail.next = attempt;
      attempt.previous = this.#tail;
      this.#tail = attempt;
    } else {
      this.#head = this.#tail = attempt;
      // A timer left from before may be set for an earlier deadline: it fires, then sets itself again.
      if (this.#timer) this.#timer.ref?.();
      else this.#arm(attempt.deadline);
    }
  }

  remove(attempt: Attempt): void {
    const { previous, next } = attempt;
    if (previous) previous.next = next;
    else if (this.#head === attempt) this.#head = next;
    else return; // not in the list (any more)
    if (next) next.previous = previous;
    else this.#tail = previous;
    attempt.previous = attempt.next = undefined;
    // Nothing in flight: the timer must not keep the process alive.
    if (!this.#head) this.#timer?.unref?.();
  }

  #arm(deadline: number): void {
    this.#timer = setTimeout(this.#fire, Math.max(0, Math.ceil(deadline - performance.now()))) as Timer;
  }

  #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    while (this.#head && this.#head.deadline <= now) this.#head.expire();
    if (this.#head) this.#arm(this.#head.deadline);
  };
}

/**
 * What becomes of an attempt's outcome (see `InFlight.startDirectThen`): one object per client,
 * given the call's own `context`.
 */
export interface AttemptFollowUp<C, T> {
  answered(response: TransportResponse, context: C): T | PromiseLike<T>;
  failed(error: unknown, context: C): T | PromiseLike<T>;
}

/** One attempt: the handle a transport settles, a node of the in-flight list, the abort listener. */
class Attempt implements AttemptHandle, EventListenerObject {
  deadline = 0;
  previous: Attempt | undefined;
  next: Attempt | undefined;
  onCancel: ((reason: unknown) => void) | undefined;
  #settled = false;
  readonly #list: InFlight;
  readonly #signal: AbortSignal | undefined;
  readonly #resolve: (value: unknown) => void;
  readonly #reject: (error: unknown) => void;
  readonly #followUp: AttemptFollowUp<unknown, unknown> | undefined;
  readonly #context: unknown;

  constructor(
    list: InFlight,
    signal: AbortSignal | undefined,
    resolve: (value: unknown) => void,
    reject: (error: unknown) => void,
    followUp: AttemptFollowUp<unknown, unknown> | undefined,
    context: unknown,
  ) {
    this.#list = list;
    this.#signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#followUp = followUp;
    this.#context = context;
  }

  resolve(response: TransportResponse): void {
    if (!this.#end()) return;
    if (this.#followUp === undefined) this.#resolve(response);
    else this.#follow(true, response);
  }

  reject(error: unknown): void {
    if (!this.#end()) return;
    if (this.#followUp === undefined) this.#reject(error);
    else this.#follow(false, error);
  }

  #follow(answered: boolean, outcome: unknown): void {
    const followUp = this.#followUp!;
    let value: unknown;
    try {
      value = answered
        ? followUp.answered(outcome as TransportResponse, this.#context)
        : followUp.failed(outcome, this.#context);
    } catch (error) {
      this.#reject(error);
      return;
    }
    this.#resolve(value);
  }

  /** The timeout. */
  expire(): void {
    this.#cancel(new AttemptTimeout());
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.#cancel(this.#signal?.reason);
  }

  #cancel(reason: unknown): void {
    if (!this.#end()) return;
    const cancel = this.onCancel;
    this.onCancel = undefined;
    try {
      cancel?.(reason);
    } catch {
      // A transport that fails to stop: the attempt is over for the caller all the same.
    }
    if (this.#followUp === undefined) this.#reject(reason);
    else this.#follow(false, reason);
  }

  /** True the first time: the attempt leaves the list and lets go of the caller's signal. */
  #end(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#list.remove(this);
    this.#signal?.removeEventListener('abort', this);
    return true;
  }
}

/**
 * Waits at least `ms` milliseconds, never less (a `Retry-After` must not be undercut): Node's
 * timers may fire up to a millisecond early, so the wait goes on until the clock says so.
 * Rejects with the signal's reason as soon as it aborts.
 */
export function sleepAtLeast(ms: number, signal?: AbortSignal): Promise<void> {
  // An 'abort' event never fires again on a signal that is already aborted.
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (!(ms > 0)) return Promise.resolve();
  const deadline = performance.now() + ms;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const wait = () => {
      const left = deadline - performance.now();
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      timer = setTimeout(wait, Math.min(Math.ceil(left), MAX_TIMER_MS));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    wait();
  });
}

const sendWith = (send: (attempt: AttemptHandle) => void, attempt: AttemptHandle): void => send(attempt);
