/**
 * Scenario `secrets`: a canary API key through every failure path — every error class, retries,
 * hooks (throwing ones included), JSON-RPC errors with the key in the URL, a server that echoes the
 * key back in every form (exact, other letter case, cut short, URL-encoded, nested deep) — and a
 * canary webhook secret through the webhook kit's refusals; then the demo run with the canary key
 * while the emulator fails its requests. Everything observable is searched for the canaries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { BlockwireError, type Client, createClient } from '@blockwire/core';
import { getEntity } from '@blockwire/entities';
import { getSolanaTokenPrices } from '@blockwire/prices';
import { createRpcClient } from '@blockwire/rpc';
import {
  assertValidSignature,
  createWebhookHandler,
  getBitcoinStream,
  signBody,
  verifySignature,
} from '@blockwire/streams';
import {
  baseUrlVariables,
  binOf,
  type EmulatorProcess,
  startChild,
  startEmulatorProcess,
} from './processes.ts';
import { Checks, type Figure, result, type Scale, type ScenarioResult } from './report.ts';
import { tally } from './sdk.ts';

export const CANARY_KEY = 'Kc4n4ryQ-7f3a9c2e51d84b06e9d1Zx';
export const CANARY_SECRET = 'Sc4n4ryW-4d2f8e1a9b7c3650aa7fQv';
/** The rule the README states: any run of 8 characters of a secret, letter case ignored, is masked. */
const WINDOW = 8;

/** Every 8-character run of `secret`, lower-cased: a text containing one leaks it. */
function windowsOf(secret: string): string[] {
  const lower = secret.toLowerCase();
  return Array.from({ length: lower.length - WINDOW + 1 }, (_, i) => lower.slice(i, i + WINDOW));
}

/** Collects texts to search, each with where it came from. */
class Observations {
  readonly texts: { where: string; text: string }[] = [];
  add(where: string, value: unknown): void {
    const text =
      typeof value === 'string'
        ? value
        : inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true });
    this.texts.push({ where, text });
  }
  /** An error in every form a program shows one: message, stack, String, JSON, inspect, body, cause. */
  addError(where: string, error: unknown): void {
    const e = error as Error & { body?: unknown; cause?: unknown };
    this.add(`${where} message`, String(e?.message));
    this.add(`${where} stack`, String(e?.stack));
    this.add(`${where} String()`, String(error));
    this.add(`${where} JSON.stringify`, safeJson(error));
    this.add(`${where} inspect`, error);
    this.add(`${where} body`, safeJson(e?.body));
    this.add(`${where} cause`, e?.cause);
  }
  leaks(secret: string): string[] {
    const windows = windowsOf(secret);
    const found: string[] = [];
    for (const { where, text } of this.texts) {
      const lower = text.toLowerCase();
      let decoded = lower;
      try {
        decoded = decodeURIComponent(lower);
      } catch {
        // Not URL-encoded text.
      }
      if (windows.some((window) => lower.includes(window) || decoded.includes(window))) found.push(where);
    }
    return found;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch (error) {
    return `unserializable: ${(error as Error).message}`;
  }
}

/** Nests `value` `depth` levels deep. */
const nested = (value: unknown, depth: number): unknown =>
  depth === 0 ? value : { level: depth, inner: nested(value, depth - 1) };

/** A server that answers every request with the key echoed back in every form, under `status`. */
async function startEchoServer(statusFor: () => number) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const echo = [
        CANARY_KEY,
        CANARY_KEY.toUpperCase(),
        CANARY_KEY.toLowerCase(),
        CANARY_KEY.slice(0, 16),
        CANARY_KEY.slice(-12),
        encodeURIComponent(CANARY_KEY),
        `url ${req.url}`,
        `header ${req.headers['x-api-key'] ?? ''}`,
      ];
      const rpc = req.url?.includes('/node/');
      // A 2xx REST answer is the caller's data, returned as sent: only failures are masked.
      const asked = statusFor();
      const status = asked === 200 && !rpc ? 502 : asked;
      const body =
        rpc && status === 200
          ? {
              jsonrpc: '2.0',
              id: null,
              error: { code: -32000, message: `key ${echo.join(' ')}`, data: nested(echo, 80) },
            }
          : { message: echo, error: { message: echo.join(' ') }, detail: nested(echo, 80) };
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrls: {
      evm: `${origin}/evm`,
      solana: `${origin}/solana`,
      streams: `${origin}/streams`,
      node: `${origin}/node`,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const STREAM_ID = '0da99a82-5b1f-48da-962b-d9f5f4239942';

/** One call of each interface, every failure recorded. */
async function callEveryInterface(
  client: Client,
  seen: Observations,
  paths: Record<string, number>,
  where: string,
) {
  const rpc = createRpcClient(client, { chain: 'eth' });
  const calls: [string, () => Promise<unknown>][] = [
    ['evm', () => getEntity(client, { entityId: 'binance' })],
    [
      'solana',
      () => getSolanaTokenPrices(client, { addresses: ['So11111111111111111111111111111111111111112'] }),
    ],
    ['streams', () => getBitcoinStream(client, { id: STREAM_ID })],
    ['rpc', () => rpc.request({ method: 'eth_chainId' })],
    ['rpc batch', () => Promise.all([rpc.getBlockByNumber(1), rpc.getBlockByNumber(2)])],
  ];
  for (const [name, call] of calls) {
    try {
      seen.add(`${where} ${name} answer`, await call());
    } catch (error) {
      tally(paths, `${error instanceof BlockwireError ? error.name : 'untyped'}`);
      seen.addError(`${where} ${name}`, error);
    }
  }
}

function observedClient(
  baseUrls: Partial<Record<'evm' | 'solana' | 'streams' | 'node', string>>,
  seen: Observations,
  extra: Record<string, unknown> = {},
) {
  const hook = (name: string) => async (info: unknown) => {
    seen.add(`hook ${name}`, info);
    // A hook that fails, with what it was given in its message: the SDK ignores it.
    throw new Error(`hook ${name} failed on ${inspect(info)}`);
  };
  return createClient({
    apiKey: CANARY_KEY,
    baseUrls,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    hooks: { onRequest: hook('onRequest'), onResponse: hook('onResponse'), onRetry: hook('onRetry') },
    ...extra,
  });
}

async function sdkPaths(emulator: EmulatorProcess, seen: Observations, paths: Record<string, number>) {
  // The emulator, with each kind of failure injected on every interface.
  const client = observedClient(emulator.urls, seen, { timeoutMs: 300 });
  const faults: Record<string, unknown>[] = [
    ...[400, 401, 403, 404, 429, 500, 502, 503, 504].map((status) => ({
      rate: 1,
      statuses: [status],
      retryAfterSeconds: 0,
    })),
    { resetRate: 1 },
    { truncateRate: 1 },
    { latencyMs: 600 },
  ];
  try {
    for (const fault of faults) {
      await emulator.controlCall('POST', '/faults', { interface: 'all', ...fault });
      await callEveryInterface(client, seen, paths, `emulator ${JSON.stringify(fault)}`);
    }
    await emulator.controlCall('DELETE', '/faults');
    await callEveryInterface(client, seen, paths, 'emulator, no fault');
  } finally {
    await client.close();
  }
  // Too large an answer, a refused connection, bad input, a bad option.
  const small = observedClient(emulator.urls, seen, { maxResponseBytes: 10 });
  await callEveryInterface(small, seen, paths, 'maxResponseBytes 10');
  await small.close();
  const refused = observedClient(
    {
      evm: 'http://127.0.0.1:9',
      solana: 'http://127.0.0.1:9',
      streams: 'http://127.0.0.1:9',
      node: 'http://127.0.0.1:9',
    },
    seen,
  );
  await callEveryInterface(refused, seen, paths, 'refused');
  await refused.close();
  const validating = observedClient(emulator.urls, seen);
  for (const call of [
    () => getEntity(validating, { entityId: `..${CANARY_KEY}` }),
    () => createRpcClient(validating, { chain: CANARY_KEY }).request({ method: 'eth_chainId' }),
    () => createClient({ apiKey: `${CANARY_KEY}\n`, baseUrls: emulator.urls }),
    () => createClient({ apiKey: CANARY_KEY, baseUrl: emulator.urls.evm } as never),
  ]) {
    try {
      await call();
    } catch (error) {
      tally(paths, error instanceof BlockwireError ? error.name : 'untyped');
      seen.addError('validation', error);
    }
  }
  await validating.close();
  // A service that echoes the key back, in every status and as a JSON-RPC error.
  const statuses = [400, 401, 403, 404, 429, 500, 503, 200];
  let turn = 0;
  const echo = await startEchoServer(() => statuses[turn++ % statuses.length]!);
  const echoed = observedClient(echo.baseUrls, seen);
  try {
    for (let round = 0; round < statuses.length; round++) {
      await callEveryInterface(echoed, seen, paths, `echo round ${round}`);
    }
  } finally {
    await echoed.close();
    await echo.close();
  }
}

async function webhookPaths(seen: Observations, paths: Record<string, number>) {
  const handler = createWebhookHandler({
    secret: CANARY_SECRET,
    onBitcoin: () => {
      throw new Error('callback failed');
    },
    onEvm: () => Promise.reject(new Error('callback failed')),
    onError: (error, context) => {
      tally(paths, `webhook onError ${context.phase}`);
      seen.addError(`webhook onError ${context.phase}`, error);
      seen.add('webhook onError context', context);
    },
  });
  const bitcoin = JSON.stringify({
    streamId: 's',
    chainId: 'mainnet',
    confirmed: false,
    block: { height: '0', hash: 'mempool' },
    retries: 0,
    transactions: [],
  });
  const notBitcoin = JSON.stringify({
    streamId: 's',
    chainId: 'mainnet',
    confirmed: 'no',
    block: 1,
    transactions: 'x',
  });
  const evm = JSON.stringify({ confirmed: true, chainId: '0x1', streamId: 's-1', logs: [] });
  const deliveries: [string, string, string | undefined][] = [
    ['forged', bitcoin, await signBody(bitcoin, `${CANARY_SECRET}x`)],
    ['unsigned', bitcoin, undefined],
    ['signature with the secret in it', bitcoin, CANARY_SECRET],
    ['malformed', '{"streamId":', 'x'],
    ['bad payload', notBitcoin, await signBody(notBitcoin, CANARY_SECRET)],
    ['callback throws', bitcoin, await signBody(bitcoin, CANARY_SECRET)],
    ['async callback rejects', evm, await signBody(evm, CANARY_SECRET)],
  ];
  for (const [name, body, signature] of deliveries) {
    const response = await handler({
      method: 'POST',
      headers: signature === undefined ? {} : { 'x-signature': signature },
      rawBody: body,
    });
    tally(paths, `webhook ${response.status}`);
    seen.add(`webhook answer ${name}`, response);
  }
  await handler.idle();
  seen.add(
    'verifySignature',
    await verifySignature({ body: bitcoin, signature: CANARY_SECRET, secret: CANARY_SECRET }),
  );
  try {
    await assertValidSignature({ body: bitcoin, signature: 'wrong', secret: CANARY_SECRET });
  } catch (error) {
    tally(paths, 'SignatureError');
    seen.addError('assertValidSignature', error);
  }
}

export async function secrets(_scale: Scale): Promise<ScenarioResult> {
  const started = performance.now();
  const seen = new Observations();
  const paths: Record<string, number> = {};
  const emulator = await startEmulatorProcess({ apiKey: CANARY_KEY });
  const written: string[] = [];
  const writes = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  try {
    await sdkPaths(emulator, seen, paths);
    await webhookPaths(seen, paths);
    const demo = await demoLogs(emulator, seen);
    seen.add('this process stdout and stderr', written.join(''));
    const keyLeaks = seen.leaks(CANARY_KEY);
    const secretLeaks = seen.leaks(CANARY_SECRET);
    const figures: Record<string, Figure> = {
      failurePaths: paths,
      failuresObserved: Object.values(paths).reduce((a, b) => a + b, 0),
      errorClassesSeen: Object.keys(paths).filter((name) => !name.startsWith('webhook')).length,
      textsSearched: seen.texts.length,
      demoRequests: demo.requests,
      demoStatuses: demo.statuses,
      apiKeyLeaks: keyLeaks.length,
      webhookSecretLeaks: secretLeaks.length,
      leakedIn: [...keyLeaks, ...secretLeaks].slice(0, 5).join(' | ') || 'nowhere',
    };
    const checks = new Checks();
    checks.atLeast('errorClassesSeen', figures.errorClassesSeen as number, 9);
    checks.equal('apiKeyLeaks', keyLeaks.length, 0);
    checks.equal('webhookSecretLeaks', secretLeaks.length, 0);
    checks.atLeast('demoRequests', demo.requests, 10);
    return result('secrets', started, figures, checks);
  } finally {
    for (const restore of writes) restore();
    await emulator.stop();
  }
}

/**
 * The demo against the emulator as if it were the service, with the canary key: every page route,
 * without faults and with each kind of failure. Its answers to the page and its logs are searched.
 */
async function demoLogs(emulator: EmulatorProcess, seen: Observations) {
  const dataDir = mkdtempSync(join(tmpdir(), 'blockwire-secrets-demo-'));
  const statuses: Record<string, number> = {};
  let requests = 0;
  const demo = await startChild<{ url: string }>([binOf('blockwire-demo', 'blockwire-demo')], {
    env: {
      BLOCKWIRE_API_KEY: CANARY_KEY,
      ...baseUrlVariables(emulator),
      BLOCKWIRE_DEMO_DATA_DIR: dataDir,
      PORT: '0',
    },
    readyLine: (line) => {
      const url = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1];
      return url ? { url } : undefined;
    },
  });
  try {
    const url = demo.ready.url;
    const routes: [string, string, unknown?][] = [
      ['GET', 'api/info'],
      ['GET', 'api/prices/evm?chain=eth&address=0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'],
      ['POST', 'api/prices/solana', { addresses: ['So11111111111111111111111111111111111111112'] }],
      ['GET', 'api/entities/search?query=bin'],
      ['GET', 'api/entities/entity?id=binance'],
      ['GET', 'api/entities/categories'],
      ['GET', 'api/entities/category?id=exchanges'],
      ['GET', 'api/blocks/block?chain=eth'],
      ['GET', 'api/bitcoin/board'],
    ];
    const faults: (Record<string, unknown> | undefined)[] = [
      undefined,
      ...[401, 403, 429, 500, 503].map((status) => ({ rate: 1, statuses: [status], retryAfterSeconds: 0 })),
      { resetRate: 1 },
      { truncateRate: 1 },
    ];
    for (const fault of faults) {
      if (fault) await emulator.controlCall('POST', '/faults', { interface: 'all', ...fault });
      else await emulator.controlCall('DELETE', '/faults');
      for (const [method, path, body] of routes) {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        requests++;
        tally(statuses, String(response.status));
        seen.add(`demo ${method} ${path} ${JSON.stringify(fault)}`, await response.text());
      }
    }
    await emulator.controlCall('DELETE', '/faults');
  } finally {
    await demo.stop();
    seen.add('demo logs', demo.output());
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { requests, statuses };
}
