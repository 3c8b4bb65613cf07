import {
  adversarialString,
  json,
  KNOWN_ADVERSARIAL_INPUTS,
  LINEAR_TIME_LIMIT_MS,
  startServer,
  timeOf,
} from '@blockwire/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { isPlainPath } from './client-routes.js';
import { createClient } from './create-client.js';
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
import { pathSegmentIssue } from './path-segment.js';
import {
  evmAddress,
  evmChain,
  integerLike,
  nonNegativeInteger,
  nonNegativeNumber,
  withMeta,
} from './schemas.js';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

const described = (description: string) => ({ description });
/** What every operation says about itself, for operations that exist only in a test. */
const presented = (id: string) => ({
  id,
  resource: 'test',
  action: id,
  displayName: id,
  summary: `The ${id} test operation`,
  examples: [{ input: {}, response: {} }] as const,
});

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
    chain: z.optional(evmChain),
    toBlock: z.optional(withMeta(nonNegativeInteger, described('A block'))),
    minLiquidity: z.optional(withMeta(nonNegativeNumber, described('Least USD liquidity'))),
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
  return createClient({
    apiKey: 'test-2f9a7c31e8d54b60',
    baseUrls: { evm: `${url}/api/v2.2`, streams: url },
    retry: false,
  });
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
    await runOperation(clientFor(server.url), setStatus, { id: 'a b+c:é', status: 'paused' });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/streams/a%20b%2Bc%3A%C3%A9/status',
      body: '{"status":"paused"}',
    });
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

  it('masks the key when a bad value that echoes in the message is the key itself', async () => {
    const apiKey = 'Kx9-4f2e8d1c7b3a5960';
    const client = createClient({ apiKey, baseUrls: { evm: 'http://127.0.0.1:9' }, retry: false });
    const error = await runOperation(client, getPrice, { address: USDC, chain: apiKey } as never).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    const shown = [(error as Error).message, (error as Error).stack, JSON.stringify(error)].join('\n');
    expect(shown).toContain('unknown chain "***"');
    expect(shown.toLowerCase()).not.toContain('4f2e8d1c');
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

  it('flags an unreadable reply to a write that is not safe to repeat: it happened, what it made is unknown', async () => {
    const create = defineOperation({
      ...presented('createThing'),
      api: 'streams',
      method: 'PUT',
      path: '/things',
      input: z.object({ tag: z.string().meta(described('A tag')) }),
      fields: { tag: 'body' },
      response: z.looseObject({ id: z.string() }),
      idempotent: false,
    });
    // No Content-Length: the cut-short body looks complete to the client, and is not JSON.
    server = await startServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"id":"0b2b4a57');
    });
    const error = await runOperation(clientFor(server.url), create, { tag: 'mine' }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain('Outcome unknown');
    server.respond = (_req, res) => json(res, 200, { usdPrice: 'one dollar' });
    const read = await runOperation(clientFor(server.url), getPrice, { address: USDC }).catch((e) => e);
    expect(read.outcomeUnknown).toBe(false);
  });

  it('accepts a response with only the required fields', async () => {
    server = await startServer((_req, res) => json(res, 200, { usdPrice: 2 }));
    await expect(runOperation(clientFor(server.url), getPrice, { address: USDC })).resolves.toEqual({
      usdPrice: 2,
    });
  });
});

describe('path segments cannot change the route', () => {
  const removeXpub = defineOperation({
    ...presented('removeXpub'),
    api: 'streams',
    method: 'DELETE',
    path: '/streams/bitcoin/{id}/xpub/{xpubId}',
    // Plain strings, not even trimmed: the guard must not depend on each schema.
    input: z.object({
      id: z.string().meta(described('A stream')),
      xpubId: z.string().meta(described('An xpub')),
    }),
    fields: { id: 'path', xpubId: 'path' },
    response: z.unknown(),
    idempotent: false,
  });

  it('every path it builds from a plain template is plain, so a client may send it without a second look', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          adversarialString(undefined, 8).map((input) => input.text),
          fc.constantFrom(...refused, '..%', '..x', 'a.b', '.x.', '%zz', '\uFF0E'),
        ),
        fc.oneof(fc.string(), fc.constantFrom('..', '.', 'ok')),
        (id, xpubId) => {
          let path: string;
          try {
            path = buildRequest(removeXpub, { id, xpubId }).path;
          } catch {
            return;
          }
          expect(isPlainPath(path)).toBe(true);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  const refused = [
    '.',
    '..',
    ' .. ',
    '\t..',
    '..;jsessionid=1',
    '%2e',
    '%2E%2e',
    '.%2e',
    '%252e',
    '..%2f',
    '%u002e',
    'a/b',
    '../x',
    'a\\b',
    '..\\',
    'x?y',
    'x#y',
    '\uFF0E\uFF0E',
    'a\uFF0Fb',
    '\u2025',
    '',
    '   ',
    'a\u0000b',
    'a\uD800',
    '\uDC00b',
  ];

  it.each(refused.map((value) => [JSON.stringify(value), value]))(
    'refuses %s before any request, naming the field',
    async (_, xpubId) => {
      server = await startServer((_req, res) => json(res, 200, {}));
      const error = await runOperation(clientFor(server.url), removeXpub, { id: 'stream', xpubId }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual(['xpubId']);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('keeps ordinary ids, dots and percent signs included', () => {
    for (const xpubId of [
      'abc',
      'a.b',
      '...',
      '.hidden',
      'v1..2',
      '50%',
      '100%z',
      'a b',
      'é',
      '😀',
      'xpub6C…',
    ]) {
      const built = buildRequest(removeXpub, { id: 'stream', xpubId });
      expect(built.path).toBe(`/streams/bitcoin/stream/xpub/${encodeURIComponent(xpubId)}`);
    }
  });

  it('never lets an accepted value leave its segment, through a URL parser or a proxy that decodes again', () => {
    const piece = fc.constantFrom(
      '.',
      '%',
      '2',
      'e',
      'E',
      'f',
      'F',
      '5',
      'c',
      'C',
      '/',
      '\\',
      ';',
      ' ',
      'a',
      'u',
      '0',
      '\uFF0E',
      '\uFF0F',
      '?',
      '#',
      '\u2024',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
        (xpubId) => {
          let built: { path: string };
          try {
            built = buildRequest(removeXpub, { id: 'stream', xpubId });
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
            return;
          }
          const parsed = new URL(`https://service.example${built.path}`).pathname;
          expect(parsed).toBe(built.path);
          for (const decoded of [parsed, decodeURIComponent(parsed)]) {
            const segments = decoded.normalize('NFKC').split('/');
            expect(segments.slice(0, 5)).toEqual(['', 'streams', 'bitcoin', 'stream', 'xpub']);
            expect(segments).toHaveLength(6);
            expect(['.', '..']).not.toContain(segments[5]!.split(';')[0]!.trim());
            expect(segments[5]).not.toMatch(/[\\?#]/);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('is linear on 40,000-character adversarial values', () => {
    fc.assert(
      fc.property(adversarialString(), (input) => {
        expect(timeOf(() => pathSegmentIssue(input.text))).toBeLessThan(LINEAR_TIME_LIMIT_MS);
      }),
      { numRuns: 100, examples: [...KNOWN_ADVERSARIAL_INPUTS] },
    );
  });

  it('refuses a lone surrogate in a query or body value too, naming the field', async () => {
    const search = defineOperation({
      ...presented('search'),
      api: 'evm',
      method: 'POST',
      path: '/search',
      input: z.object({
        q: z.string().meta(described('Search text')),
        tags: z.array(z.string()).meta(described('Tags')).optional(),
      }),
      fields: { q: 'query', tags: 'body' },
      response: z.unknown(),
      idempotent: true,
    });
    expect(() => buildRequest(search, { q: 'a\uD800' })).toThrow(/q: must not contain a lone surrogate/);
    expect(() => buildRequest(search, { q: 'ok', tags: ['x', '\uDFFFy'] })).toThrow(
      /tags\.1: must not contain a lone surrogate/,
    );
    // Inside a list of objects too (a body the schema did not check this far), with its path.
    expect(() => buildRequest(search, { q: 'ok', tags: [{ a: ['x', 'y\uD800'] }] as never })).toThrow(
      /tags\.0\.a\.1: must not contain a lone surrogate/,
    );
    expect(buildRequest(search, { q: '😀', tags: ['é'] }).query).toEqual({ q: '😀' });
  });
});

describe('mistakes in the call itself', () => {
  it('says the first argument must be a client when the input comes first', async () => {
    for (const notAClient of [{ address: USDC }, undefined, null, 'key', {}]) {
      const error = await runOperation(notAClient as never, getPrice, undefined as never).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toBe(
        'Invalid arguments of getPrice: client: must be a client from createClient(), passed first: getPrice(client, input)',
      );
    }
  });

  it('refuses call options that are not { signal }, naming them', async () => {
    const client = clientFor('http://127.0.0.1:9');
    for (const [options, path] of [
      [null, 'options'],
      ['fast', 'options'],
      [[], 'options'],
      [{ timeout: 5_000 }, 'options.timeout'],
      [{ signal: 'stop' }, 'options.signal'],
      [{ signal: {} }, 'options.signal'],
    ] as const) {
      const error = await runOperation(client, getPrice, { address: USDC }, options as never).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe(path);
    }
  });

  it('says which field a wire name means (to_block is toBlock), also for a non-strict schema', async () => {
    server = await startServer((_req, res) => json(res, 200, { usdPrice: 1 }));
    const error = await runOperation(clientFor(server.url), getPrice, {
      address: USDC,
      to_block: 5,
    } as never).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(
      'Invalid input of getPrice: unknown field(s) to_block (did you mean "toBlock"? "to_block" is its name on the wire)',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('suggests the nearest field for a typo, and lists unknown fields with the other issues', async () => {
    const error = await runOperation(clientFor('http://127.0.0.1:9'), getPrice, {
      adress: USDC,
      colour: 'red',
    } as never).catch((e) => e);
    expect((error as ValidationError).issues).toEqual([
      { path: '', message: 'unknown field(s) adress (did you mean "address"?), colour' },
      { path: 'address', message: expect.any(String) },
    ]);
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
