/**
 * The SDK as the scenarios drive it: every package's `actions`, a client whose requests carry the
 * id of the call they belong to (`X-Request-Id`, which the emulator logs), and how errors count.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Action,
  BlockwireError,
  type Client,
  type ClientOptions,
  createClient,
  createUndiciTransport,
  type Operation,
} from '@blockwire/core';
import { actions as entityActions } from '@blockwire/entities/operations';
import { actions as priceActions } from '@blockwire/prices/operations';
import { actions as streamActions } from '@blockwire/streams/operations';

/** Every REST action of the SDK, package by package (the JSON-RPC methods are the rpc package's). */
export type RestAction = Action & { operation: Operation };

export const restActions: readonly RestAction[] = [
  ...priceActions,
  ...entityActions,
  ...streamActions,
] as unknown as readonly RestAction[];

const currentCall = new AsyncLocalStorage<string>();

/** Runs `fn` as call `id`: every attempt it makes is sent with `X-Request-Id: id`. */
export const asCall = <T>(id: string, fn: () => Promise<T>): Promise<T> => currentCall.run(id, fn);

/** The id of the call running now (inside `asCall`), for hooks. */
export const callId = (): string | undefined => currentCall.getStore();

/**
 * A client on the default transport (undici, keep-alive pool), with one header added per request:
 * the id of the call it belongs to, so the server's log can tell the attempts of each call apart.
 */
export function taggedClient(options: ClientOptions): Client {
  const transport = createUndiciTransport();
  const client = createClient({
    ...options,
    transport: (request) =>
      transport({
        ...request,
        headers: { ...request.headers, 'x-request-id': currentCall.getStore() ?? 'untagged' },
      }),
  });
  return Object.freeze({
    ...client,
    async close() {
      await client.close();
      await transport.close();
    },
  });
}

/** The class name of a typed error (`RateLimitError`…), or `untyped:<name>` for anything else. */
export function errorKind(error: unknown): string {
  if (error instanceof BlockwireError) return error.name;
  return `untyped:${error instanceof Error ? error.name : typeof error}`;
}

export const isTyped = (error: unknown): error is BlockwireError => error instanceof BlockwireError;

/** Adds one to `counts[key]`. */
export function tally(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** Counts the unhandled rejections that happen while `fn` runs (and a moment after). */
export async function countingUnhandled<T>(fn: () => Promise<T>): Promise<{ value: T; unhandled: number }> {
  let unhandled = 0;
  const listener = () => {
    unhandled++;
  };
  process.on('unhandledRejection', listener);
  try {
    const value = await fn();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { value, unhandled };
  } finally {
    process.off('unhandledRejection', listener);
  }
}

/** Runs `tasks` with at most `limit` at a time; resolves when all have settled. */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
