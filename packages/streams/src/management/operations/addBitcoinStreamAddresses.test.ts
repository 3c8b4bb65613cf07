import { BadRequestError, type Client, ValidationError } from '@blockwire/core';
import { startServer, type TestServer } from '@blockwire/testing';
import { API_KEY, clientFor, STREAMS_BASE_PATH } from '@blockwire/testing/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addBitcoinStreamAddresses } from './addBitcoinStreamAddresses.js';

const STREAM_ID = '0b2b4a57-7f3c-11ee-b962-0242ac120002';
const ADDRESSES = [
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
  'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
];

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startServer();
  client = clientFor(server);
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.respond = () => ({ body: {} });
});

describe('addBitcoinStreamAddresses', () => {
  it('sends one request per address, each with { address }, and reports each result in input order', async () => {
    server.respond = (request) => {
      const { address } = request.json as { address: string };
      return address === ADDRESSES[2]
        ? { status: 400, body: { message: 'address already watched' } }
        : { body: { address } };
    };
    const results = await addBitcoinStreamAddresses(client, { id: STREAM_ID, addresses: ADDRESSES });

    expect(results.map((result) => [result.address, result.ok])).toEqual(
      ADDRESSES.map((address, i) => [address, i !== 2]),
    );
    const failed = results[2]!;
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.error).toBeInstanceOf(BadRequestError);
      expect(failed.error.message).toContain('address already watched');
    }
    const first = results[0]!;
    expect(first.ok && first.response).toEqual({ address: ADDRESSES[0] });

    expect(server.requests).toHaveLength(ADDRESSES.length);
    for (const request of server.requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe(`${STREAMS_BASE_PATH}/streams/bitcoin/${STREAM_ID}/address`);
      expect(request.headers['x-api-key']).toBe(API_KEY);
    }
    for (const request of server.requests) expect(Object.keys(request.json as object)).toEqual(['address']);
    expect(server.requests.map((request) => (request.json as { address: string }).address).sort()).toEqual(
      [...ADDRESSES].sort(),
    );
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server.respond = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 15));
      inFlight--;
      return { body: {} };
    };
    const results = await addBitcoinStreamAddresses(
      client,
      { id: STREAM_ID, addresses: ADDRESSES },
      { concurrency: 2 },
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.requests).toHaveLength(ADDRESSES.length);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('checks every address before sending anything, naming each bad one', async () => {
    const addresses = [...ADDRESSES, 'tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', 'bc1qnotanaddress'];
    const error = await addBitcoinStreamAddresses(client, { id: STREAM_ID, addresses }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      'addresses.6',
      'addresses.7',
    ]);
    expect((error as ValidationError).message).toMatch(/addresses\.6: is a testnet address/);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a bad stream id, a missing list and a bad concurrency without a request', async () => {
    const badId = await addBitcoinStreamAddresses(client, { id: 'x', addresses: ADDRESSES }).catch(
      (e: unknown) => e,
    );
    expect((badId as ValidationError).issues.map((issue) => issue.path)).toEqual(['id']);
    const noList = await addBitcoinStreamAddresses(client, {
      id: STREAM_ID,
      addresses: ADDRESSES[0] as never,
    }).catch((e: unknown) => e);
    expect((noList as ValidationError).issues).toEqual([
      { path: 'addresses', message: 'must be a list of Bitcoin addresses' },
    ]);
    for (const concurrency of [0, 1.5, -1]) {
      const error = await addBitcoinStreamAddresses(
        client,
        { id: STREAM_ID, addresses: ADDRESSES },
        { concurrency },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]!.path).toBe('concurrency');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('resolves to an empty list for no addresses, without a request', async () => {
    await expect(addBitcoinStreamAddresses(client, { id: STREAM_ID, addresses: [] })).resolves.toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects with the abort reason when the signal is aborted, and starts no further request', async () => {
    const controller = new AbortController();
    server.respond = () => {
      controller.abort(new Error('stop'));
      return { body: {} };
    };
    const error = await addBitcoinStreamAddresses(
      client,
      { id: STREAM_ID, addresses: ADDRESSES },
      { concurrency: 1, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('stop');
    expect(server.requests).toHaveLength(1);
  });
});
