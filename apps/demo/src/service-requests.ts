/**
 * Counts the HTTP requests the SDK sends to the service on behalf of one page request (retries
 * and chunked calls included, a JSON-RPC batch once), so the page can show what a lookup cost.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientHooks } from '@blockwire/core';

const current = new AsyncLocalStorage<{ requests: number }>();

/** Client hooks that count into the page request being served. */
export const countingHooks: ClientHooks = {
  onRequest: () => {
    const counter = current.getStore();
    if (counter) counter.requests += 1;
  },
};

/** Runs `work`, counting the service requests it causes. */
export async function withRequestCount<T>(work: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const counter = { requests: 0 };
  const result = await current.run(counter, work);
  return { result, requests: counter.requests };
}

/** Service requests made so far for the page request being served. */
export const requestsSoFar = (): number => current.getStore()?.requests ?? 0;
