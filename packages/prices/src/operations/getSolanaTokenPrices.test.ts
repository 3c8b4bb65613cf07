import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, ServerError, ValidationError, validateInput } from '@blockwire/core';
import { inputFromRequest, matchPath } from '@blockwire/core/internal';
import type { RecordedRequest } from '@blockwire/testing';
import { API_KEY, useServer } from '@blockwire/testing/sdk';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { getSolanaTokenPricesOperation } from './definitions.js';
import { getSolanaTokenPrices } from './getSolanaTokenPrices.js';

const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const WSOL = 'So11111111111111111111111111111111111111112';

/** A distinct, valid address (32 bytes in base58) for each index. */
function address(index: number): string {
  const bytes = new Uint8Array(32).fill(0xa5);
  new DataView(bytes.buffer).setUint32(28, index);
  return base58.encode(bytes);
}

function priceFor(tokenAddress: string) {
  return { tokenAddress, usdPrice: tokenAddress.length / 10, name: `Token ${tokenAddress.slice(-4)}` };
}

/** Prices every requested address except `unpriced`, in reverse order (the service may reorder). */
function pricing(unpriced: ReadonlySet<string> = new Set()) {
  return (request: RecordedRequest) => {
    const { addresses } = request.json as { addresses: string[] };
    return {
      body: addresses
        .filter((a) => !unpriced.has(a))
        .map(priceFor)
        .reverse(),
    };
  };
}

const fullPrice = {
  tokenAddress: BONK,
  pairAddress: 'Eb8ciKCFjB6K9PfDtvx6vmEtAaKjMQBwjj6pNcSDcXtA',
  usdPrice: 0.00002413,
  exchangeAddress: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
  exchangeName: 'Raydium AMM v4',
  logo: 'https://logo.example/bonk.png',
  name: 'Bonk',
  symbol: 'Bonk',
  score: 92,
  usdPrice24h: 0.00002501,
  usdPrice24hrUsdChange: -0.00000088,
  usdPrice24hrPercentChange: -3.518,
  isVerifiedContract: true,
};

const t = useServer(pricing());

describe('getSolanaTokenPrices request', () => {
  it('POSTs the addresses as JSON to the mainnet path with the key header', async () => {
    await getSolanaTokenPrices(t.client, { addresses: [BONK, JUP] });
    expect(t.server.requests).toHaveLength(1);
    const [request] = t.server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/token/mainnet/prices');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({ addresses: [BONK, JUP] });
  });

  it('uses the devnet path when asked', async () => {
    await getSolanaTokenPrices(t.client, { network: 'devnet', addresses: [WSOL] });
    expect(t.server.requests[0]!.url).toBe('/token/devnet/prices');
  });

  it('is retried on a 503 like any read-only call', async () => {
    const patient = createClient({
      apiKey: API_KEY,
      baseUrls: { solana: t.server.url },
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    let calls = 0;
    t.server.respond = (request) => (++calls === 1 ? { status: 503, body: {} } : pricing()(request));
    expect(await getSolanaTokenPrices(patient, { addresses: [BONK] })).toEqual([priceFor(BONK)]);
    expect(t.server.requests).toHaveLength(2);
    await patient.close();
  });
});

describe('getSolanaTokenPrices input rules', () => {
  it.each([
    ['addresses', {}],
    ['addresses', { addresses: [] }],
    ['addresses', { addresses: BONK }],
    ['addresses.0', { addresses: ['0x5d3a536E4D6DbD6114cc1Ead35777bAB948E3643'] }],
    ['addresses.1', { addresses: [BONK, 'short'] }],
    ['addresses.0', { addresses: [`${BONK}abc`] }],
    ['addresses.0', { addresses: [BONK.replace('D', '0')] }],
    ['addresses.0', { addresses: [42] }],
    // Base58 of the right length that decodes to 33 bytes: not an address.
    ['addresses.0', { addresses: ['LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDjJ1oVEEsbjk'] }],
    ['network', { network: 'testnet', addresses: [BONK] }],
    ['network', { network: 'Mainnet', addresses: [BONK] }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await getSolanaTokenPrices(t.client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });

  it('checks every address before sending anything, naming each bad one', async () => {
    const addresses = Array.from({ length: 250 }, (_, i) => address(i));
    addresses[3] = 'not-base58!';
    addresses[240] = '';
    const error = await getSolanaTokenPrices(t.client, { addresses }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      'addresses.3',
      'addresses.240',
    ]);
    expect((error as ValidationError).message).toContain('addresses.3');
    expect(t.server.requests).toHaveLength(0);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects concurrency %s before any request', async (concurrency) => {
    const error = await getSolanaTokenPrices(t.client, { addresses: [BONK] }, { concurrency }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'concurrency', message: 'must be an integer >= 1' },
    ]);
    expect(t.server.requests).toHaveLength(0);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the caller'));
    await expect(
      getSolanaTokenPrices(t.client, { addresses: [BONK, JUP] }, { signal: controller.signal }),
    ).rejects.toThrow('cancelled by the caller');
    expect(t.server.requests).toHaveLength(0);
  });

  it('rejects an unknown field, naming it', async () => {
    const error = await getSolanaTokenPrices(t.client, { addresses: [BONK], chain: 'solana' } as never).catch(
      (e: unknown) => e,
    );
    expect((error as ValidationError).message).toContain('chain');
    expect(t.server.requests).toHaveLength(0);
  });
});

describe('getSolanaTokenPrices chunking', () => {
  it('splits 250 addresses with duplicates into calls of at most 100, sending each once, order kept', async () => {
    const distinct = Array.from({ length: 240 }, (_, i) => address(i));
    const addresses = [...distinct.slice(0, 120), ...distinct.slice(0, 10), ...distinct.slice(120)];
    expect(addresses).toHaveLength(250);
    const unpriced = new Set([distinct[5]!, distinct[150]!, distinct[239]!]);
    t.server.respond = pricing(unpriced);

    const prices = await getSolanaTokenPrices(t.client, { addresses });

    expect(t.server.requests).toHaveLength(3);
    const sent = t.server.requests.map((r) => (r.json as { addresses: string[] }).addresses);
    expect(sent.map((chunk) => chunk.length).sort()).toEqual([100, 100, 40]);
    expect(sent.flat().sort()).toEqual([...distinct].sort());
    for (const request of t.server.requests) expect(request.url).toBe('/token/mainnet/prices');
    expect(prices.map((p) => p.tokenAddress)).toEqual(distinct.filter((a) => !unpriced.has(a)));
    expect(prices[0]).toEqual(priceFor(distinct[0]!));
  });

  it('returns one entry per distinct address in order of first appearance, whatever order the service uses', async () => {
    t.server.respond = () => ({ body: [priceFor(WSOL), priceFor(BONK), priceFor(JUP), priceFor(BONK)] });
    const prices = await getSolanaTokenPrices(t.client, { addresses: [JUP, BONK, JUP, WSOL, BONK] });
    expect(t.server.requests[0]!.json).toEqual({ addresses: [JUP, BONK, WSOL] });
    expect(prices.map((p) => p.tokenAddress)).toEqual([JUP, BONK, WSOL]);
  });

  it('returns every price in the order asked when the service answers so, over several calls', async () => {
    const distinct = Array.from({ length: 250 }, (_, i) => address(i));
    t.server.respond = (request) => ({
      body: (request.json as { addresses: string[] }).addresses.map(priceFor),
    });
    const prices = await getSolanaTokenPrices(t.client, { addresses: [...distinct, distinct[7]!] });
    expect(t.server.requests).toHaveLength(3);
    expect(prices).toEqual(distinct.map(priceFor));
  });

  it('keeps to the asked order and to one entry per address when an answer in order is one off', async () => {
    const distinct = Array.from({ length: 150 }, (_, i) => address(i));
    // As many entries as addresses, in the order asked, but the second call's first address is
    // priced twice and its last not at all; and an address of the first call comes back again.
    t.server.respond = (request) => {
      const asked = (request.json as { addresses: string[] }).addresses;
      if (asked[0] !== distinct[100]) return { body: asked.map(priceFor) };
      const body = [asked[0]!, ...asked.slice(0, -1)].map(priceFor);
      body[10] = { ...priceFor(distinct[3]!), usdPrice: -1 };
      return { body };
    };
    const prices = await getSolanaTokenPrices(t.client, { addresses: distinct }, { concurrency: 1 });
    const expected = distinct.filter((a) => a !== distinct[149] && a !== distinct[109]);
    expect(prices.map((p) => p.tokenAddress)).toEqual(expected);
    expect(prices[3]).toEqual(priceFor(distinct[3]!));
  });

  it('ignores entries for addresses that were not asked for', async () => {
    t.server.respond = () => ({ body: [priceFor(WSOL), { usdPrice: 1 }, priceFor(BONK)] });
    const prices = await getSolanaTokenPrices(t.client, { addresses: [BONK] });
    expect(prices).toEqual([priceFor(BONK)]);
  });

  it('returns an empty list when nothing has a price', async () => {
    t.server.respond = () => ({ body: [] });
    expect(await getSolanaTokenPrices(t.client, { addresses: [BONK, JUP] })).toEqual([]);
  });

  it.each([
    [undefined, 8],
    [2, 2],
  ])('keeps at most %s (default 8) calls in flight', async (concurrency, expected) => {
    const distinct = Array.from({ length: 1000 }, (_, i) => address(i));
    // Hold each answer until `expected` calls wait (or all have arrived), so the peak is reached
    // whatever the timing; a fallback release keeps a wrong implementation from hanging the test.
    let inFlight = 0;
    let peak = 0;
    let arrived = 0;
    let waiting: Array<() => void> = [];
    const releaseAll = () => {
      const ready = waiting;
      waiting = [];
      for (const release of ready) release();
    };
    t.server.respond = async (request) => {
      inFlight++;
      arrived++;
      peak = Math.max(peak, inFlight);
      const released = new Promise<void>((resolve) => waiting.push(resolve));
      if (waiting.length >= expected || arrived === 10) releaseAll();
      const fallback = setTimeout(releaseAll, 2000);
      await released;
      clearTimeout(fallback);
      inFlight--;
      return pricing()(request);
    };
    const prices = await getSolanaTokenPrices(
      t.client,
      { addresses: distinct },
      concurrency === undefined ? {} : { concurrency },
    );
    expect(t.server.requests).toHaveLength(10);
    expect(peak).toBe(expected);
    expect(prices.map((p) => p.tokenAddress)).toEqual(distinct);
  });

  it('fails as a whole when one call fails', async () => {
    const distinct = Array.from({ length: 300 }, (_, i) => address(i));
    t.server.respond = (request) =>
      (request.json as { addresses: string[] }).addresses.includes(distinct[150]!)
        ? { status: 500, body: { message: 'upstream down' } }
        : pricing()(request);
    const error = await getSolanaTokenPrices(t.client, { addresses: distinct }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).serviceMessage).toBe('upstream down');
  });
});

describe('getSolanaTokenPrices response', () => {
  it('parses a realistic full element, keeping unknown fields', async () => {
    t.server.respond = () => ({ body: [{ ...fullPrice, nativePrice: { value: '123', symbol: 'SOL' } }] });
    expect(await getSolanaTokenPrices(t.client, { addresses: [BONK] })).toEqual([
      { ...fullPrice, nativePrice: { value: '123', symbol: 'SOL' } },
    ]);
  });

  it('parses a minimal element', async () => {
    t.server.respond = () => ({ body: [{ tokenAddress: BONK }] });
    expect(await getSolanaTokenPrices(t.client, { addresses: [BONK] })).toEqual([{ tokenAddress: BONK }]);
  });

  it('reports a body that is not a list as a ResponseValidationError', async () => {
    t.server.respond = () => ({ body: { tokenAddress: BONK } });
    await expect(getSolanaTokenPrices(t.client, { addresses: [BONK] })).rejects.toMatchObject({
      name: 'ResponseValidationError',
    });
  });
});

describe('getSolanaTokenPricesOperation (one wire call)', () => {
  it('takes 1 to 100 addresses', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => address(i));
    expect(validateInput(getSolanaTokenPricesOperation.input, { addresses: hundred })).toEqual({
      network: 'mainnet',
      addresses: hundred,
    });
    for (const addresses of [[], [...hundred, address(100)]]) {
      expect(() => validateInput(getSolanaTokenPricesOperation.input, { addresses })).toThrow(/addresses/);
    }
  });

  it('validates a request as the emulator receives it', () => {
    const params = matchPath(getSolanaTokenPricesOperation, '/token/devnet/prices');
    const raw = inputFromRequest(getSolanaTokenPricesOperation, {
      params: params!,
      query: {},
      body: { addresses: [BONK] },
    });
    expect(validateInput(getSolanaTokenPricesOperation.input, raw)).toEqual({
      network: 'devnet',
      addresses: [BONK],
    });
  });

  it('is marked idempotent, since it only reads', () => {
    expect(getSolanaTokenPricesOperation.idempotent).toBe(true);
  });
});

/**
 * A Solana prices server that allows `allowed` calls in flight and answers any call beyond them
 * with a 429 and `Retry-After: retryAfter` (seconds). It counts what the client did: calls in
 * flight as they arrive (refused ones included), and 429s.
 */
async function startRateLimitedServer(options: { allowed: number; latencyMs: number; retryAfter: string }) {
  const counts = { requests: 0, refused: 0, peakArriving: 0 };
  let arriving = 0;
  let served = 0;
  const server = createServer((req, res) => {
    arriving++;
    counts.peakArriving = Math.max(counts.peakArriving, arriving);
    res.on('finish', () => arriving--);
    let text = '';
    req.on('data', (data: Buffer) => (text += data));
    req.on('end', () => {
      counts.requests++;
      if (served >= options.allowed) {
        counts.refused++;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': options.retryAfter });
        res.end('{"message":"Too many requests"}');
        return;
      }
      served++;
      const { addresses } = JSON.parse(text) as { addresses: string[] };
      setTimeout(() => {
        served--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(addresses.map(priceFor)));
      }, options.latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, counts, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('getSolanaTokenPrices against a service that allows fewer calls in flight', () => {
  it('lowers the calls in flight on a 429 instead of being refused again until the retries run out', async () => {
    // 200 calls of 10 ms, 10 in flight: about 200 ms, ten times the 20 ms Retry-After, which the
    // retries wait exactly (no random backoff). Keeping 16 in flight, the refused calls came back
    // together while the others held every place the service allows, were refused again, and the
    // third 429 failed the whole call.
    const server = await startRateLimitedServer({ allowed: 10, latencyMs: 10, retryAfter: '0.02' });
    const client = createClient({
      apiKey: API_KEY,
      baseUrls: { solana: server.url },
      retry: { maxAttempts: 3, baseDelayMs: 0 },
    });
    try {
      const addresses = Array.from({ length: 20_000 }, (_, i) => address(i));
      const prices = await getSolanaTokenPrices(client, { addresses }, { concurrency: 16 });
      expect(prices).toHaveLength(addresses.length);
      const { requests, refused, peakArriving } = server.counts;
      expect(requests).toBe(200 + refused);
      // Each 429 halves the number in flight, which grows back by one after a run of successes:
      // beyond the first calls, only the probes above 10 are refused (5 to 9 in all, where
      // keeping 16 in flight was refused 48 times when it got through at all).
      expect(peakArriving).toBeLessThanOrEqual(16);
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThanOrEqual(20);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('is refused nothing at the default concurrency by a service that allows 10', async () => {
    const server = await startRateLimitedServer({ allowed: 10, latencyMs: 5, retryAfter: '1' });
    const client = createClient({ apiKey: API_KEY, baseUrls: { solana: server.url } });
    try {
      const addresses = Array.from({ length: 3_000 }, (_, i) => address(i));
      expect(await getSolanaTokenPrices(client, { addresses })).toHaveLength(addresses.length);
      expect(server.counts).toMatchObject({ requests: 30, refused: 0, peakArriving: 8 });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
