/**
 * A limit on attempts in flight that adapts to the service's 429s, shared by the requests of one
 * batched call (AIMD, as TCP does with its window): a 429 halves the limit (never below 1), and
 * each run of successes as long as the limit raises it by one again, up to the maximum asked for.
 *
 * Requests take a slot per attempt, not per request: one that waits out a `Retry-After` holds no
 * slot, so the others go on at the lowered limit meanwhile.
 */

/** What `client.request` asks of `ClientRequest.slots` around each attempt. */
export interface AttemptSlots {
  /** Resolves when the attempt may be sent (a slot is free); rejects with the signal's reason. */
  take(signal?: AbortSignal): Promise<AttemptSlot>;
}

/** One taken slot: given back once with how its attempt ended. */
export interface AttemptSlot {
  /** `refused`: the service answered 429 (too many requests); `done`: anything else. */
  give(ended: 'refused' | 'done'): void;
}

export class AdaptiveConcurrency implements AttemptSlots {
  readonly max: number;
  #limit: number;
  #inFlight = 0;
  #successes = 0;
  /** Bumped at each cut: 429s of attempts sent before it were answered to the limit already cut. */
  #epoch = 0;
  #waiting: (() => void)[] = [];

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

  async take(signal?: AbortSignal): Promise<AttemptSlot> {
    signal?.throwIfAborted();
    while (this.#inFlight >= this.#limit) await this.#wait(signal);
    this.#inFlight++;
    const epoch = this.#epoch;
    let given = false;
    return {
      give: (ended) => {
        if (given) return;
        given = true;
        this.#inFlight--;
        if (ended === 'refused') this.#refused(epoch);
        else this.#succeeded();
        this.#wakeUp();
      },
    };
  }

  #refused(epoch: number): void {
    this.#successes = 0;
    if (epoch !== this.#epoch) return;
    this.#epoch++;
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
  }

  #succeeded(): void {
    if (this.#limit >= this.max) return;
    if (++this.#successes < this.#limit) return;
    this.#successes = 0;
    this.#limit++;
  }

  #wakeUp(): void {
    const free = this.#limit - this.#inFlight;
    for (const wake of this.#waiting.splice(0, Math.max(0, free))) wake();
  }

  #wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(wake);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
