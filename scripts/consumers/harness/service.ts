/**
 * The service for the consumer projects: the emulator (a real server, anvil behind its node
 * interface), and what a test asks of a receiver — the emulator's own signed deliveries of a
 * Bitcoin payment as it goes mempool → in block → confirmed, and the answers a receiver owes to
 * requests that are not deliveries.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@blockwire/core';
import { DEFAULT_SECRET_KEY, startEmulator } from '@blockwire/emulator';
import { addBitcoinStreamAddress, createBitcoinStream, deleteBitcoinStream } from '@blockwire/streams';
import { keccak256, stringToHex } from 'viem';

/** The address the payments go to (BIP84 test mnemonic, receive 0/0). */
export const WATCHED_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
export const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const REQUEST_TIMEOUT_MS = 10_000;
const DELIVERY_TIMEOUT_MS = 45_000;

export interface Service {
  apiKey: string;
  urls: Record<'evm' | 'solana' | 'streams' | 'node', string>;
  control: string;
  /** What the emulator signs deliveries with: the project's `secretKey`. */
  secret: string;
  /** The variables the READMEs tell a user to set, for this emulator. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startService(options: { allowedOrigins?: string[] } = {}): Promise<Service> {
  const emulator = await startEmulator({ allowedOrigins: options.allowedOrigins ?? [] });
  const urls = emulator.urls as Service['urls'];
  return {
    apiKey: emulator.apiKey,
    urls,
    control: emulator.control,
    secret: DEFAULT_SECRET_KEY,
    env: {
      BLOCKWIRE_API_KEY: emulator.apiKey,
      BLOCKWIRE_EVM_URL: urls.evm,
      BLOCKWIRE_SOLANA_URL: urls.solana,
      BLOCKWIRE_STREAMS_URL: urls.streams,
      BLOCKWIRE_NODE_URL: urls.node,
      BLOCKWIRE_CONTROL_URL: emulator.control,
      BLOCKWIRE_WEBHOOK_SECRET: DEFAULT_SECRET_KEY,
    },
    close: () => emulator.close(),
  };
}

async function control(service: Service, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${service.control}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

interface DeliveryAttempt {
  delivery: number;
  streamId: string;
  retries: number;
  status?: number;
  error?: string;
  delivered: boolean;
}

/**
 * Points a new Bitcoin stream at `webhookUrl` (its verification POST must be answered 2xx), pays
 * the watched address and mines three blocks; resolves once the receiver answered 200, at the
 * first attempt, to each of the three deliveries (mempool, in block, confirmed). `output` is the
 * receiver's log, shown when it fails.
 */
export async function deliverPayment(
  service: Service,
  webhookUrl: string,
  output: () => string = () => '',
): Promise<void> {
  const client = createClient({
    apiKey: service.apiKey,
    baseUrls: service.urls,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  try {
    const stream = await createBitcoinStream(client, { webhookUrl, description: 'consumer project' });
    if (stream.status !== 'active') {
      throw new Error(
        `the verification POST to ${webhookUrl} was refused: ${stream.statusMessage}\n${output()}`,
      );
    }
    await addBitcoinStreamAddress(client, { id: stream.id, address: WATCHED_ADDRESS });
    await control(service, '/bitcoin/transactions', { to: WATCHED_ADDRESS, amountBtc: '0.0125' });
    await control(service, '/bitcoin/mine', { blocks: 1 });
    await control(service, '/bitcoin/mine', { blocks: 2 });
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    let attempts: DeliveryAttempt[] = [];
    for (;;) {
      const log = (await control(service, '/deliveries')) as { deliveries: DeliveryAttempt[] };
      attempts = log.deliveries.filter((attempt) => attempt.streamId === stream.id);
      const delivered = new Set(attempts.filter((a) => a.delivered).map((a) => a.delivery));
      if (delivered.size >= 3 || attempts.some((a) => !a.delivered)) break;
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    const summary = attempts
      .map((a) => `#${a.delivery} try ${a.retries + 1}: ${a.status ?? a.error}`)
      .join('\n');
    const refused = attempts.filter((a) => !a.delivered || a.status !== 200 || a.retries > 0);
    if (refused.length > 0 || attempts.length !== 3) {
      throw new Error(
        `expected three deliveries each answered 200 at the first attempt, got:\n${summary || '(none)'}\n--- receiver\n${output()}`,
      );
    }
    await deleteBitcoinStream(client, { id: stream.id });
  } finally {
    await client.close();
  }
}

export const CONNECTION_RESET = 'connection reset';

export interface GuardAnswers {
  /** The verification POST as the service sends it: empty body, `content-type: application/json`. */
  emptyVerificationPost: number;
  /** A JSON body without `x-signature`. */
  unsigned: number;
  /**
   * A 64 KiB JSON body without `x-signature` (past the unsigned limit), refused unread. Where the
   * receiver cancels the upload (the Fetch handler, in workerd), the connection may be reset
   * before the 401 reaches a client still sending: `'connection reset'`.
   */
  unsignedLarge: number | typeof CONNECTION_RESET;
  /** A body that is not JSON under a signature that does not match: refused before any parse. */
  forgedNotJson: number;
  /** A body that is not JSON, correctly signed. */
  signedNotJson: number;
}

/** What a receiver answers to the requests that are not deliveries (each with a timeout). */
export async function guardAnswers(service: Service, url: string): Promise<GuardAnswers> {
  const post = async (body: string, headers: Record<string, string>): Promise<number> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    return response.status;
  };
  const notJson = 'this is not JSON';
  return {
    emptyVerificationPost: await post('', {}),
    unsigned: await post(JSON.stringify({ streamId: 's-1', chainId: 'mainnet', confirmed: false }), {}),
    unsignedLarge: await post(JSON.stringify({ streamId: 's-1', padding: 'x'.repeat(64 * 1024) }), {}).catch(
      (error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET') return CONNECTION_RESET;
        throw error;
      },
    ),
    forgedNotJson: await post(notJson, { 'x-signature': `0x${'0'.repeat(64)}` }),
    signedNotJson: await post(notJson, { 'x-signature': keccak256(stringToHex(notJson + service.secret)) }),
  };
}

/** What every receiver must answer (the webhook kit's statuses, the same on every entry point). */
export const EXPECTED_GUARD_ANSWERS: GuardAnswers = {
  emptyVerificationPost: 200,
  unsigned: 401,
  unsignedLarge: 401,
  forgedNotJson: 401,
  signedNotJson: 400,
};

/** Whether `text` shows the three stages in order (the recipes log each delivery's stage). */
export function stagesLogged(text: string): boolean {
  const at = ['mempool', 'in-block', 'confirmed'].map((stage) => text.indexOf(stage));
  return at.every((index, i) => index >= 0 && (i === 0 || index > at[i - 1]!));
}
