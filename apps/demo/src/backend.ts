/**
 * The service the demo talks to: a client from @blockwire/core pointed at the local emulator
 * (started here, anvil included) or at the real service. On the emulator the demo also gets
 * its simulator controls: Bitcoin payments and blocks, and a dev account to sign EVM transfers with.
 */
import { join } from 'node:path';
import { type Client, type ClientOptions, createClient } from '@blockwire/core';
import { DEFAULT_SECRET_KEY, type Emulator, startEmulator } from '@blockwire/emulator';
import type { BackendConfig } from './config.js';
import { type DevWallet, devWalletOf } from './dev-wallet.js';
import { SimulatorError } from './problems.js';
import { countingHooks } from './service-requests.js';

/** Drives the emulator's Bitcoin network (its control API). */
export interface BitcoinSimulator {
  /** A payment of `amountBtc` to `to` enters the mempool; resolves to its txid. */
  send(input: { to: string; amountBtc: string }): Promise<{ txid: string }>;
  /** Mines `blocks` blocks; resolves to the new tip's height. */
  mine(input: { blocks: number }): Promise<{ height: number }>;
}

export interface Backend {
  mode: BackendConfig['mode'];
  client: Client;
  /** Every secret that must never reach the browser or a log line. */
  secrets: string[];
  /** How the service signs webhooks, and where it must deliver them; undefined when it cannot reach us. */
  webhook: { secret: string; url: ((receiverUrl: string) => string) | undefined } | undefined;
  /** Why the live Bitcoin board is off, when it is. */
  webhookUnavailable: string | undefined;
  bitcoin: BitcoinSimulator | undefined;
  /** A funded dev account of the local EVM node, when there is one, to sign test transfers with. */
  devWallet: DevWallet | undefined;
  close(): Promise<void>;
}

export interface BackendOptions {
  /** Folder for the emulator's state (its streams survive a restart). */
  dataDir: string;
  /** Emulator seed; a fresh one each start unless given (see below). */
  seed?: number;
}

export async function startBackend(config: BackendConfig, options: BackendOptions): Promise<Backend> {
  if (config.mode === 'service') {
    const client = createServiceClient({ apiKey: config.apiKey, baseUrls: config.baseUrls });
    return {
      mode: 'service',
      client,
      secrets: [config.apiKey, ...(config.webhook ? [config.webhook.secret] : [])],
      webhook: config.webhook && { secret: config.webhook.secret, url: () => config.webhook!.url },
      webhookUnavailable: config.webhook
        ? undefined
        : 'The real service cannot deliver webhooks to 127.0.0.1. Set BLOCKWIRE_WEBHOOK_URL to a public HTTPS URL that forwards to this demo’s /webhooks/bitcoin, and BLOCKWIRE_WEBHOOK_SECRET to your project’s webhook secret.',
      bitcoin: undefined,
      devWallet: undefined,
      close: () => client.close(),
    };
  }
  return startEmulatorBackend(options);
}

async function startEmulatorBackend(options: BackendOptions): Promise<Backend> {
  // The simulator derives txids from its seed and the calls made, so with a fixed seed a restart
  // would mint the txids of the last run again, which the persisted board already has as confirmed.
  const seed = options.seed ?? 1 + Math.floor(Math.random() * 2_000_000_000);
  const emulator = await startEmulator({ seed, stateFile: join(options.dataDir, 'emulator-state.json') });
  const client = createServiceClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
  return {
    mode: 'emulator',
    client,
    secrets: [emulator.apiKey],
    webhook: { secret: DEFAULT_SECRET_KEY, url: (receiverUrl) => receiverUrl },
    webhookUnavailable: undefined,
    bitcoin: createSimulator(emulator),
    devWallet: devWalletOf(emulator.chain?.accounts),
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

/** The SDK client of the demo: it counts the service requests each page request causes. */
export function createServiceClient(options: ClientOptions): Client {
  return createClient({ ...options, hooks: countingHooks });
}

function createSimulator(emulator: Emulator): BitcoinSimulator {
  const control = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${emulator.control}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as T & { message?: string };
    if (!response.ok) throw new SimulatorError(answer.message ?? `HTTP ${response.status}`);
    return answer;
  };
  return {
    send: (input) => control('/bitcoin/transactions', input),
    mine: (input) => control('/bitcoin/mine', input),
  };
}

export { SimulatorError };
