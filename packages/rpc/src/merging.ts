import type { CallOptions } from '@blockwire/core/operations';
import { mergeable, mergeKey } from './call-kinds.js';

/** Sends one call; `onEnd` runs once it has settled (see call-queue.ts). */
type Send = (
  method: string,
  params: unknown,
  operation: string,
  signal: AbortSignal | undefined,
  onEnd?: () => void,
) => Promise<unknown>;

/**
 * A shared call's result until `send` returns it. No caller ever gets it: the call is in the map
 * first (so that `forget` finds it even if it settles at once), and nobody can join before `send`
 * has returned.
 */
const NOT_YET: Promise<unknown> = Promise.resolve();

/** One call in flight that identical calls join instead of sending their own. */
interface SharedCall {
  result: Promise<unknown>;
  /** Callers that can give up (have a signal) and have not. */
  waiting: number;
  /** A caller without a signal keeps the call going whatever the others do. */
  pinned: boolean;
  /** Cancels the call once every caller has given up; none when the first caller cannot give up. */
  abort: AbortController | undefined;
}

/**
 * Sends a call, or joins an identical one already in flight (same method, same params): viem
 * does the same, so N callers asking for one block cost one call, not N. Each caller can still
 * give up on its own; the shared call is cancelled only when every caller has. The function
 * returned sends each call through `send`.
 */
export function createCallMerger(send: Send) {
  const inFlight = new Map<string, SharedCall>();

  function execute(method: string, params: unknown, operation: string, options: CallOptions) {
    const { signal } = options;
    signal?.throwIfAborted();
    const key = mergeable(method) ? mergeKey(method, params) : undefined;
    if (key === undefined) return send(method, params, operation, signal);
    let shared = inFlight.get(key);
    if (!shared) {
      // A first caller without a signal pins the call (nobody can cancel it), so it needs no
      // AbortController nor the listeners one brings: the usual call, made without a signal.
      const abort = signal ? new AbortController() : undefined;
      const created: SharedCall = { result: NOT_YET, waiting: 0, pinned: false, abort };
      // Forgotten as the call settles, not a turn later through a promise of its own: hundreds of
      // calls are in flight at once, and what each holds until its answer is copied by every
      // collection that falls in between.
      const forget = () => {
        if (inFlight.get(key) === created) inFlight.delete(key);
      };
      inFlight.set(key, created);
      created.result = send(method, params, operation, abort?.signal, forget);
      shared = created;
    }
    if (!signal) {
      shared.pinned = true;
      return shared.result;
    }
    return joinUntilAborted(shared, signal);
  }

  function joinUntilAborted(shared: SharedCall, signal: AbortSignal): Promise<unknown> {
    shared.waiting += 1;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        shared.waiting -= 1;
        if (shared.waiting === 0 && !shared.pinned) shared.abort?.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.result.then(
        (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  return execute;
}
