import type { AttemptHandle, ClientRuntime, TransportResponse } from '@blockwire/core/operations';
import type { RpcTimers } from '@blockwire/rpc/operations';
import { sleep } from 'n8n-workflow';

/**
 * The SDK's client on n8n's runtime: no timer of its own (n8n forbids them in community nodes).
 * Each attempt ends when n8n's request does (its `timeout`, see `n8nTransport`) or when the
 * execution is cancelled; the waits between retries are n8n-workflow's `sleep`.
 */
export const N8N_RUNTIME: ClientRuntime = {
  userAgent: undefined,
  attempts: () => ({ start: startAttempt }),
  sleep: sleepAtLeast,
};

/** The JSON-RPC client's batch window and rate-limit pause, on n8n-workflow's `sleep`. */
export const N8N_RPC_TIMERS: RpcTimers = {
  after(ms, run) {
    let cancelled = false;
    void sleep(ms).then(() => {
      if (!cancelled) run();
    });
    return () => {
      cancelled = true;
    };
  },
  sleep: (ms) => sleepAtLeast(ms, undefined),
};

function startAttempt(
  signal: AbortSignal | undefined,
  send: (attempt: AttemptHandle) => void,
): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const end = () => {
      if (settled) return false;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const attempt: AttemptHandle = {
      resolve: (response) => end() && resolve(response),
      reject: (error) => end() && reject(error),
      onCancel: undefined,
    };
    function onAbort() {
      if (!end()) return;
      attempt.onCancel?.(signal?.reason);
      reject(signal?.reason);
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      send(attempt);
    } catch (error) {
      attempt.reject(error);
    }
  });
}

/**
 * Waits at least `ms` (a Retry-After must not be undercut, and a timer may fire a little early),
 * and stops waiting, rejecting with its reason, when `signal` aborts.
 */
async function sleepAtLeast(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const deadline = performance.now() + ms;
  for (let left = ms; left > 0; left = deadline - performance.now()) {
    signal?.throwIfAborted();
    await untilAborted(sleep(Math.ceil(left)), signal);
  }
  signal?.throwIfAborted();
}

function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
