import { json, startServer } from '@blockwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createClient } from './client.js';
import { ResponseValidationError, ValidationError } from './errors.js';
import {
  buildRequest,
  defineOperation,
  fieldsAt,
  fieldsIn,
  inputFromRequest,
  matchPath,
  runOperation,
} from './operation.js';
import { evmAddress, evmChain, integerLike, nonNegativeInteger, nonNegativeNumber } from './schemas.js';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

const described = (description: string) => ({ description });

const getPrice = defineOperation({
  id: 'getPrice',
  resource: 'testPrice',
  action: 'get',
  displayName: 'Get Price',
  summary: 'A token price',
  examples: [{ input: { address: USDC }, response: { usdPrice: 1 } }],
  api: 'evm',
  method: 'GET',
  path: '/erc20/{address}/price',
  input: z.object({
    address: evmAddress,
    chain: evmChain.optional(),
    toBlock: nonNegativeInteger.meta(described('A block')).optional(),
    minLiquidity: nonNegativeNumber.meta(described('Least USD liquidity')).optional(),
  }),
  fields: {
    address: 'path',
    chain: 'query',
    toBlock: { in: 'query', as: 'to_block' },
    minLiquidity: { in: 'query', as: 'min_pair_side_liquidity_usd' },
  },
  response: z.looseObject({ usdPrice: z.number(), tokenName: z.string().optional() }),
  idempotent: true,
});

const setStatus = defineOperation({
  id: 'setStatus',
  resource: 'testStream',
  action: 'setStatus',
  displayName: 'Set Status',
  summary: 'Set a status',
  examples: [{ input: { id: 'a', status: 'active' }, response: { status: 'active' } }],
  api: 'streams',
  method: 'POST',
  path: '/streams/{id}/status',
  input: z.object({
    id: z.string().min(1).meta(described('The stream')),
    status: z.enum(['active', 'paused']).meta(described('The new status')),
  }),
  fields: { id: 'path', status: 'body' },
  response: z.looseObject({ status: z.string() }),
  idempotent: true,
});

let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(url: string) {
  return createClient({ apiKey: 'k', baseUrls: { evm: `${url}/api/v2.2`, streams: url }, retry: false });
}

describe('defineOperation', () => {
  it('refuses a path whose placeholders and path fields disagree', () => {
    expect(() =>
      defineOperation({
        ...setStatus,
        path: '/streams/{streamId}/status',
      }),
    ).toThrow(/\{streamId\}.*path fields are id/);
  });

  it('lists where every field goes, with its wire name', () => {
    expect(fieldsIn(getPrice)).toEqual([
      { field: 'address', in: 'path', wire: 'address' },
      { field: 'chain', in: 'query', wire: 'chain' },
      { field: 'toBlock', in: 'query', wire: 'to_block' },
      { field: 'minLiquidity', in: 'query', wire: 'min_pair_side_liquidity_usd' },
    ]);
  });
});

describe('runOperation', () => {
  it('validates, sends the contract’s names, and parses the response keeping unknown fields', async () => {
    server = await startServer((_req, res) => json(res, 200, { usdPrice: 1.001, extra: { kept: true } }));
    const result = await runOperation(clientFor(server.url), getPrice, {
      address: USDC,
      chain: 'polygon',
      toBlock: 19_000_000,
      minLiquidity: '1000.5',
    });
    expect(server.requests[0]?.url).toBe(
      `/api/v2.2/erc20/${USDC}/price?chain=0x89&to_block=19000000&min_pair_side_liquidity_usd=1000.5`,
    );
    expect(result).toEqual({ usdPrice: 1.001, extra: { kept: true } });
  });

  it('sends body fields as JSON and encodes path segments', async () => {
    server = await startServer((_req, res) => json(res, 200, { status: 'paused' }));
    await runOperation(clientFor(server.url), setStatus, { id: 'a b?c#%2e%2e', status: 'paused' });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/streams/a%20b%3Fc%23%252e%252e/status',
      body: '{"status":"paused"}',
    });
  });

  // `..` would be resolved away before sending (DELETE .../xpub/.. deletes the stream), and an
  // encoded / or \ is decoded into another path by some proxies.
  it.each([
    ['..', 'must not be "." or ".." (the URL would lead to another path)'],
    ['.', 'must not be "." or ".." (the URL would lead to another path)'],
    ['a/../b', 'must not contain "/" or "\\" (it is one segment of the URL path)'],
    ['a\\b', 'must not contain "/" or "\\" (it is one segment of the URL path)'],
    ['a\ud800', 'must be well-formed text (it holds a lone surrogate)'],
  ])('refuses the path value %j, naming the field, and sends nothing', async (id, message) => {
    server = await startServer((_req, res) => json(res, 200, { status: 'paused' }));
    const error = await runOperation(clientFor(server.url), setStatus, { id, status: 'paused' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: 'id', message }]);
    expect((error as ValidationError).message).toBe(`Invalid input of setStatus: id: ${message}`);
    expect(server.requests).toHaveLength(0);
  });

  it('names every bad field and sends nothing', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    let error: unknown;
    try {
      await runOperation(clientFor(server.url), getPrice, {
        address: '0x123',
        chain: 'atlantis',
        toBlock: -1,
        minLiquidity: -3,
      } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((i) => i.path)).toEqual(['address', 'chain', 'toBlock', 'minLiquidity']);
    expect((error as ValidationError).message).toMatch(
      /^Invalid input of getPrice: address: must be a 0x-prefixed/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a missing required field and a non-integer block', async () => {
    await expect(runOperation(clientFor('http://127.0.0.1:9'), getPrice, {} as never)).rejects.toMatchObject({
      issues: [{ path: 'address' }],
    });
    await expect(
      runOperation(clientFor('http://127.0.0.1:9'), getPrice, { address: USDC, toBlock: 1.5 }),
    ).rejects.toMatchObject({ issues: [{ path: 'toBlock', message: 'must be an integer >= 0' }] });
  });

  it('reports a response that breaks a required field', async () => {
    server = await startServer((_req, res) => json(res, 200, { usdPrice: 'one dollar' }));
    await expect(runOperation(clientFor(server.url), getPrice, { address: USDC })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it('accepts a response with only the required fields', async () => {
    server = await startServer((_req, res) => json(res, 200, { usdPrice: 2 }));
    await expect(runOperation(clientFor(server.url), getPrice, { address: USDC })).resolves.toEqual({
      usdPrice: 2,
    });
  });
});

describe('the emulator’s direction: from a request back to input', () => {
  it('matches paths and decodes their segments', () => {
    expect(matchPath(getPrice, `/erc20/${USDC}/price`)).toEqual({ address: USDC });
    expect(matchPath(setStatus, '/streams/a%2Fb/status')).toEqual({ id: 'a/b' });
    expect(matchPath(getPrice, '/erc20/x/y/price')).toBeUndefined();
    expect(matchPath(getPrice, '/erc20//price')).toBeUndefined();
  });

  it('rebuilds the input from path, query and body, so the same schema validates it', () => {
    const input = inputFromRequest(getPrice, {
      params: { address: USDC },
      query: { chain: 'eth', to_block: '12', min_pair_side_liquidity_usd: '5' },
      body: undefined,
    });
    expect(input).toEqual({ address: USDC, chain: 'eth', toBlock: '12', minLiquidity: '5' });
    expect(getPrice.input.parse(input)).toEqual({
      address: USDC,
      chain: '0x1',
      toBlock: 12,
      minLiquidity: 5,
    });
    expect(
      inputFromRequest(setStatus, { params: { id: 'x' }, query: {}, body: { status: 'active' } }),
    ).toEqual({
      id: 'x',
      status: 'active',
    });
  });

  it('round-trips: buildRequest then inputFromRequest gives back the values', () => {
    const values = { address: USDC, chain: '0x1', toBlock: 5 };
    const built = buildRequest(getPrice, values);
    const params = matchPath(getPrice, built.path)!;
    const query = Object.fromEntries(Object.entries(built.query).map(([k, v]) => [k, String(v)]));
    expect(getPrice.input.parse(inputFromRequest(getPrice, { params, query, body: built.body }))).toEqual(
      values,
    );
  });
});

describe('shared schemas', () => {
  it('reads page numbers sent as strings or numbers', () => {
    expect(integerLike.parse('3')).toBe(3);
    expect(integerLike.parse(3)).toBe(3);
    expect(integerLike.safeParse('three').success).toBe(false);
  });

  it('accepts EVM addresses in any case and nothing else', () => {
    expect(evmAddress.safeParse(USDC.toLowerCase()).success).toBe(true);
    expect(evmAddress.safeParse(USDC.toUpperCase().replace('0X', '0x')).success).toBe(true);
    for (const bad of ['', USDC.slice(0, -1), `${USDC}0`, USDC.replace('0x', ''), `0x${'g'.repeat(40)}`]) {
      expect(evmAddress.safeParse(bad).success).toBe(false);
    }
  });

  it('accepts digit strings for integers and rejects the rest', () => {
    expect(nonNegativeInteger.parse('0')).toBe(0);
    for (const bad of ['', '-1', '1.5', 'abc', 1.5, -1, Number.NaN]) {
      expect(nonNegativeInteger.safeParse(bad).success).toBe(false);
    }
  });
});

describe('fieldsAt', () => {
  it('puts every field of a shape in one place', () => {
    expect(fieldsAt({ webhookUrl: 1, tag: 2 }, 'body')).toEqual({ webhookUrl: 'body', tag: 'body' });
  });
});
