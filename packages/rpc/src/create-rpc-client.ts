/** `createRpcClient`: the JSON-RPC client (./client.ts) on the runtime's own timers. */
import type { Client } from '@blockwire/core';
import { sleepAtLeast } from '@blockwire/core/internal';
import { createRpcClientWith, type RpcClient, type RpcClientOptions, type RpcTimers } from './client.js';

const TIMERS: RpcTimers = {
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  sleep: (ms) => sleepAtLeast(ms),
};

/** A JSON-RPC client of one chain's node: the typed methods, `request()` for any method, batching of calls made together. */
export function createRpcClient(client: Client, options: RpcClientOptions): RpcClient {
  return createRpcClientWith(client, options, TIMERS);
}
