/**
 * The REST comparison's clients, each built in a process of its own (`client-process.ts`). A run
 * makes `calls` EVM token price calls, `concurrency` at a time, checks every answer, and returns
 * requests per second. Each client imports its library when it is built, so a process holds only
 * its own contender's code (the official SDK's alone is several MB of heap to mark).
 */
import { builderOf, type Client, namesOf } from '../client-process.ts';
import { API_KEY, evmTokenPrice, USDC } from '../fixtures.ts';
import { since, withConcurrency } from '../harness.ts';
import { dispatchJson } from './undici-dispatch.ts';

export const CONCURRENCY = 32;

export interface RestConfig {
  /** The REST server's origin. */
  serverUrl: string;
}

export interface RestArgs {
  calls: number;
  concurrency: number;
}

interface Calls {
  call(): Promise<{ usdPrice?: unknown }>;
  close(): Promise<void>;
}

const pathOf = () => `/api/v2.2/erc20/${USDC}/price?chain=0x1`;
const headers = { accept: 'application/json', 'x-api-key': API_KEY };

/** `getEvmTokenPrice` with the default client (undici, retries, 30 s timeout, input and response validation). */
async function blockwireCalls({ serverUrl }: RestConfig): Promise<Calls> {
  const { createClient } = await import('@blockwire/core');
  const { getEvmTokenPrice } = await import('@blockwire/prices');
  const client = createClient({ apiKey: API_KEY, baseUrls: { evm: `${serverUrl}/api/v2.2` } });
  return {
    call: () => getEvmTokenPrice(client, { address: USDC, chain: 'eth' }),
    close: () => client.close(),
  };
}

/**
 * The transport a Node program gets when it bundles the fetch build (the weight comparison's small
 * Node bundle): measured so the choice of undici on Node is a measured one.
 */
async function blockwireFetchCalls({ serverUrl }: RestConfig): Promise<Calls> {
  const { createClient, createFetchTransport } = await import('@blockwire/core');
  const { getEvmTokenPrice } = await import('@blockwire/prices');
  const client = createClient({
    apiKey: API_KEY,
    baseUrls: { evm: `${serverUrl}/api/v2.2` },
    transport: createFetchTransport({ fetch }),
  });
  return {
    call: () => getEvmTokenPrice(client, { address: USDC, chain: 'eth' }),
    close: () => client.close(),
  };
}

/**
 * `blockwire` with a subscriber on every event of the `blockwire:call` tracing channel (each does
 * nothing): what watching calls costs, beside the unwatched client (a channel with nobody
 * subscribed costs one `hasSubscribers` read a call).
 */
async function blockwireSubscribedCalls(config: RestConfig): Promise<Calls> {
  const { tracingChannel } = await import('node:diagnostics_channel');
  const { CALL_CHANNEL } = await import('@blockwire/core');
  const ignore = () => {};
  const subscriber = { start: ignore, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore };
  const channel = tracingChannel(CALL_CHANNEL);
  channel.subscribe(subscriber);
  const calls = await blockwireCalls(config);
  return {
    call: calls.call,
    async close() {
      channel.unsubscribe(subscriber);
      await calls.close();
    },
  };
}

/** The leanest undici call there is: `dispatch` with a handler that gathers the bytes, then `JSON.parse`. */
async function undiciDispatchCalls({ serverUrl }: RestConfig): Promise<Calls> {
  const { Pool } = await import('undici');
  const pool = new Pool(serverUrl, { connections: CONCURRENCY });
  const request = { origin: serverUrl, path: pathOf(), method: 'GET', headers } as const;
  return {
    call: () => dispatchJson<{ usdPrice?: unknown }>(pool, request),
    close: () => pool.close(),
  };
}

async function undiciRequestCalls({ serverUrl }: RestConfig): Promise<Calls> {
  const { Pool } = await import('undici');
  const pool = new Pool(serverUrl, { connections: CONCURRENCY });
  const path = pathOf();
  return {
    async call() {
      const response = await pool.request({ path, method: 'GET', headers });
      return JSON.parse(await response.body.text());
    },
    close: () => pool.close(),
  };
}

async function fetchCalls({ serverUrl }: RestConfig): Promise<Calls> {
  const url = `${serverUrl}${pathOf()}`;
  return {
    async call() {
      const response = await fetch(url, { headers });
      return response.json();
    },
    close: async () => {},
  };
}

/** `Moralis.EvmApi.token.getTokenPrice` (moralis 2.27.2, `evmApiBaseUrl` pointed at the server). */
async function moralisCalls({ serverUrl }: RestConfig): Promise<Calls> {
  const { startMoralis } = await import('../moralis.ts');
  const moralis = await startMoralis(`${serverUrl}/api/v2.2`);
  return {
    async call() {
      const price = await moralis.EvmApi.token.getTokenPrice({ address: USDC, chain: '0x1' });
      return price.toJSON();
    },
    close: async () => {},
  };
}

const clients = {
  blockwire: blockwireCalls,
  'undici-dispatch': undiciDispatchCalls,
  'undici-request': undiciRequestCalls,
  fetch: fetchCalls,
  moralis: moralisCalls,
  'blockwire-fetch': blockwireFetchCalls,
  'blockwire-subscribed': blockwireSubscribedCalls,
} satisfies Record<string, (config: RestConfig) => Promise<Calls>>;

export type RestClientName = keyof typeof clients;
/** The REST clients, in the order the comparison runs them. */
export const REST_CLIENTS = namesOf(clients);

/** REST client `name`, each of its calls checked to answer the fixture's price. */
export async function checkedRestCalls(
  name: string,
  config: RestConfig,
): Promise<{ call: () => Promise<void>; close: () => Promise<void> }> {
  const make = builderOf(clients, name, 'REST client');
  const { call, close } = await make(config);
  const checked = async () => {
    if ((await call()).usdPrice !== evmTokenPrice.usdPrice) throw new Error('wrong price');
  };
  return { call: checked, close };
}

export async function makeClient(name: string, config: RestConfig): Promise<Client<RestArgs>> {
  const { call, close } = await checkedRestCalls(name, config);
  return {
    async run({ calls, concurrency }) {
      const start = performance.now();
      await withConcurrency(calls, concurrency, call);
      return calls / (since(start) / 1000);
    },
    close,
  };
}
