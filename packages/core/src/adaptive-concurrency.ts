/**
 * A limit on attempts in flight that adapts to the service's 429s, shared by the requests of one
 * batched call (AIMD, as TCP does with its window): a 429 cuts the limit (never below 1), and
 * each run of successes as long as the limit raises it by one again, up to the maximum asked for.
 *
 * How deep the cut goes depends on what the refusal says. A service that limits how many calls a
 * key has in flight serves every attempt up to its number and refuses the one above it: when the
 * refused attempt went out with more of ours in flight than the service has been seen to serve
 * at once (since the last halving), the limit goes back to that number, which the service has
 * shown it takes, and growing back to the number refused takes a run of successes four times
 * as long. Any other 429 (the service refused a number it served before: a rate per second, or
 * less room left by other callers) halves the limit.
 *
 * Requests take a slot per attempt, not per request: one that waits out a `Retry-After` holds no
 * slot, so the others go on at the lowered limit meanwhile. Slots are handed out in the order
 * they were asked for, retries first: a refused request sent again goes out at the lowered limit
 * as soon as a slot is free, not after requests not sent yet (behind them, it would be the one
 * sent when the limit next grows by one, the attempt most likely to be refused).
 */

/** What `client.request` asks of `ClientRequest.attemptSlots` around each attempt. */
export interface AttemptSlots {
  /**
   * Resolves when the attempt may be sent (a slot is free); rejects with the signal's reason.
   * `retry`: the request was sent before and refused or failed; it has waited already.
   */
  take(signal?: AbortSignal, retry?: boolean): Promise<AttemptSlot>;
}

/** One taken slot: given back once with how its attempt ended. */
export interface AttemptSlot {
  /**
   * `refused`: the service answered 429 (too many requests); `done`: anything else.
   *
   * For `refused`, the answer says whether other attempts holding slots were still in flight
   * then. A 429 while others are being served most likely means "too many at once", which the
   * lowered limit already answers: `client.request` then sends the request again as soon as a
   * slot is free, without waiting out its `Retry-After` (once per request; a second 429 waits).
   * Returning nothing or `false` has every 429 wait its `Retry-After`.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a slot written for the earlier `give(): void` still fits
  give(ended: 'refused' | 'done'): boolean | void;
}

interface Waiter {
  resolve(slot: AttemptSlot): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class AdaptiveConcurrency implements AttemptSlots {
  readonly max: number;
  #limit: number;
  #inFlight = 0;
  #successes = 0;
  /** Bumped at each cut: 429s of attempts sent before it were answered to the limit already cut. */
  #epoch = 0;
  /**
   * The most of our attempts in flight (counted as each was sent, itself included) of an attempt
   * the service served, among those sent since the last cut; forgotten when the limit is halved.
   */
  #served = 0;
  /**
   * How many of ours were in flight when the service last refused one above what it served
   * (0: none since the last halving). Growing back to that number takes a longer run.
   */
  #refusedAt = 0;
  /** Attempts waiting for a slot, first come first served: retries, then first attempts. */
  #retries: Waiter[] = [];
  #firsts: Waiter[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be an integer >= 1');
    this.max = max;
    this.#limit = max;
  }

  /** How many attempts may be in flight now. */
  get limit(): number {
    return this.#limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  take(signal?: AbortSignal, retry = false): Promise<AttemptSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Not an async function: the usual take (a slot free, nobody waiting) is one resolved promise.
    // A free slot has nobody waiting for it: each one given back goes at once to the first in line.
    if (this.#inFlight < this.#limit) return Promise.resolve(this.#send());
    const line = retry ? this.#retries : this.#firsts;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = line.indexOf(waiter);
          if (index >= 0) line.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      line.push(waiter);
    });
  }

  /** Counts an attempt as sent now, and makes the slot it gives back. */
  #send(): AttemptSlot {
    const inFlight = ++this.#inFlight;
    const epoch = this.#epoch;
    let given = false;
    return {
      give: (ended) => {
        if (given) return false;
        given = true;
        this.#inFlight--;
        const othersInFlight = this.#inFlight > 0;
        if (ended === 'refused') this.#refused(epoch, inFlight);
        else this.#succeeded(epoch, inFlight);
        this.#wakeUp();
        return ended === 'refused' && othersInFlight;
      },
    };
  }

  #refused(epoch: number, sentWith: number): void {
    this.#successes = 0;
    if (epoch !== this.#epoch) return;
    this.#epoch++;
    const half = Math.max(1, Math.floor(this.#limit / 2));
    if (sentWith > this.#served && this.#served > half) {
      // Above what the service has served at once: back to that, which it has shown it takes.
      this.#limit = this.#served;
      this.#refusedAt = sentWith;
      return;
    }
    this.#limit = half;
    this.#refusedAt = 0;
    // Refused at a number it served before: what it served no longer holds.
    if (sentWith <= this.#served) this.#served = 0;
  }

  #succeeded(epoch: number, sentWith: number): void {
    if (epoch === this.#epoch && sentWith > this.#served) this.#served = sentWith;
    if (this.#limit >= this.max) return;
    // Back up to a number just refused: only after a run four times as long, so the service
    // sees that probe a quarter as often.
    const run = this.#limit + 1 >= this.#refusedAt && this.#refusedAt > 0 ? 4 * this.#limit : this.#limit;
    if (++this.#successes < run) return;
    this.#successes = 0;
    this.#limit++;
  }

  /** Hands the free slots to the attempts waiting: retries first, each line in the order it came. */
  #wakeUp(): void {
    while (this.#inFlight < this.#limit) {
      const waiter = this.#retries.shift() ?? this.#firsts.shift();
      if (!waiter) return;
      if (waiter.onAbort) waiter.signal!.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.#send());
    }
  }
}
