/**
 * The rpc client's `request()` as viem and ethers see it: HTTP failures of the emulator's node
 * interface (a refused key, an unknown chain, injected 413/429/5xx) arrive with the EIP-1474 /
 * EIP-1193 code each library maps, and the node's own JSON-RPC errors with theirs.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AuthenticationError,
  createClient,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from '@blockwire/core';
import { createRpcClient } from '@blockwire/rpc';
import { BrowserProvider } from 'ethers';
import {
  createPublicClient,
  custom,
  InternalRpcError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  ProviderDisconnectedError,
  ResourceNotFoundRpcError,
  UnauthorizedProviderError,
} from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { call, useEmulator } from './test-support.js';

const t = useEmulator({ anvil: true });

afterEach(async () => {
  await call(`${t.emu.control}/faults`, { method: 'DELETE' });
});

const injectStatus = (status: number, retryAfterSeconds: number | null = null) =>
  call(`${t.emu.control}/faults`, {
    method: 'POST',
    body: { interface: 'node', rate: 1, statuses: [status], retryAfterSeconds },
  });

/** A viem client over `request()` that leaves retrying to the SDK (viem retries -32005 and -32603 itself). */
function viemOver(rpc: ReturnType<typeof createRpcClient>) {
  return createPublicClient({ transport: custom(rpc, { retryCount: 0 }) });
}

function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('viem custom() over request()', () => {
  it('matches LimitExceededRpcError on a 429, the Retry-After kept on the SDK error inside', async () => {
    await injectStatus(429, 7);
    const error = await failure(viemOver(createRpcClient(t.client, { chain: 'eth' })).getBlockNumber());
    expect(error).toBeInstanceOf(LimitExceededRpcError);
    const cause = (error as LimitExceededRpcError).cause;
    expect(cause).toBeInstanceOf(RateLimitError);
    expect(cause).toMatchObject({ code: -32005, status: 429, retryAfterMs: 7000 });
    expect((cause as { data: unknown }).data).toEqual({ status: 429, retryAfterMs: 7000 });
  });

  it('matches LimitExceededRpcError on a 413 too, its status telling it from a rate limit', async () => {
    await injectStatus(413);
    const error = await failure(viemOver(createRpcClient(t.client, { chain: 'eth' })).getChainId());
    expect(error).toBeInstanceOf(LimitExceededRpcError);
    expect((error as LimitExceededRpcError).cause).toMatchObject({ code: -32005, data: { status: 413 } });
  });

  it.each([500, 503])('matches InternalRpcError on a %i', async (status) => {
    await injectStatus(status);
    const error = await failure(viemOver(createRpcClient(t.client, { chain: 'eth' })).getBlockNumber());
    expect(error).toBeInstanceOf(InternalRpcError);
    expect((error as InternalRpcError).cause).toBeInstanceOf(ServerError);
    expect((error as InternalRpcError).cause).toMatchObject({ code: -32603, data: { status } });
  });

  it('matches UnauthorizedProviderError on a refused key (401) and a 403, the key in no message', async () => {
    const wrong = createClient({ apiKey: 'sk-wrong-key-0042', baseUrls: t.emu.urls, retry: false });
    try {
      const error = await failure(viemOver(createRpcClient(wrong, { chain: 'eth' })).getBlockNumber());
      expect(error).toBeInstanceOf(UnauthorizedProviderError);
      expect((error as UnauthorizedProviderError).cause).toBeInstanceOf(AuthenticationError);
      expect((error as UnauthorizedProviderError).cause).toMatchObject({ code: 4100, data: { status: 401 } });
      const said = `${String(error)} ${(error as Error).message} ${JSON.stringify((error as Error).cause)}`;
      expect(said).not.toContain('sk-wrong-key-0042');
      expect(said).not.toContain(t.emu.apiKey);
    } finally {
      await wrong.close();
    }
    await injectStatus(403);
    const forbidden = await failure(viemOver(createRpcClient(t.client, { chain: 'eth' })).getBlockNumber());
    expect(forbidden).toBeInstanceOf(UnauthorizedProviderError);
    expect(JSON.stringify((forbidden as Error).cause)).not.toContain(t.emu.apiKey);
  });

  it('matches ResourceNotFoundRpcError on an unknown chain (404)', async () => {
    const error = await failure(viemOver(createRpcClient(t.client, { chain: 'dogechain' })).getBlockNumber());
    expect(error).toBeInstanceOf(ResourceNotFoundRpcError);
    expect((error as ResourceNotFoundRpcError).cause).toBeInstanceOf(NotFoundError);
    expect((error as ResourceNotFoundRpcError).cause).toMatchObject({ code: -32001, data: { status: 404 } });
  });

  it('matches ProviderDisconnectedError (4900) when nothing answers, the system code kept under data', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = createClient({
      apiKey: 'sk-unreachable-0042',
      baseUrls: { ...t.emu.urls, node: `http://127.0.0.1:${port}/node` },
      retry: false,
    });
    try {
      const error = await failure(viemOver(createRpcClient(unreachable, { chain: 'eth' })).getBlockNumber());
      expect(error).toBeInstanceOf(ProviderDisconnectedError);
      const cause = (error as ProviderDisconnectedError).cause;
      expect(cause).toBeInstanceOf(NetworkError);
      expect(cause).toMatchObject({ code: 4900, data: { systemCode: 'ECONNREFUSED' } });
      expect(JSON.stringify(cause)).not.toContain('sk-unreachable-0042');
    } finally {
      await unreachable.close();
    }
  });

  it("keeps the node's own JSON-RPC code (-32601 for an unknown method)", async () => {
    const viem = viemOver(createRpcClient(t.client, { chain: 'eth' }));
    const error = await failure(viem.request({ method: 'eth_notAMethod' as never }));
    expect(error).toBeInstanceOf(MethodNotFoundRpcError);
  });

  it('leaves the typed functions’ errors as they were: the code is on what request() rejects with', async () => {
    await injectStatus(429);
    const error = await failure(createRpcClient(t.client, { chain: 'eth' }).getBlockNumber());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toHaveProperty('code');
  });
});

describe("ethers' BrowserProvider over request()", () => {
  /** A provider on anvil's chain id (static: no detection loop), uncached, that answers before any fault is set. */
  async function ethersOver(rpc: ReturnType<typeof createRpcClient>) {
    const provider = new BrowserProvider(rpc, 31337, { staticNetwork: true, cacheTimeout: -1 });
    expect(await provider.getBlockNumber()).toBeGreaterThan(0);
    return provider;
  }

  it.each([
    [429, -32005],
    [413, -32005],
    [403, 4100],
    [502, -32603],
  ])('hands an HTTP %i on as the EIP-1193 code %i', async (status, code) => {
    const provider = await ethersOver(createRpcClient(t.client, { chain: 'eth' }));
    try {
      await injectStatus(status);
      const error = await failure(provider.getBlockNumber());
      // ethers keeps the provider's error object as `error.error` of its UNKNOWN_ERROR.
      expect(error).toMatchObject({ code: 'UNKNOWN_ERROR', error: { code, data: { status } } });
      expect(JSON.stringify(error)).not.toContain(t.emu.apiKey);
    } finally {
      provider.destroy();
    }
  });

  it("keeps the node's own JSON-RPC code", async () => {
    const provider = await ethersOver(createRpcClient(t.client, { chain: 'eth' }));
    try {
      const error = await failure(provider.send('eth_notAMethod', []));
      expect(error).toMatchObject({ error: { code: -32601 } });
    } finally {
      provider.destroy();
    }
  });
});
