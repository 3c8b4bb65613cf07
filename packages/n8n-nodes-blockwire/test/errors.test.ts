import {
  AuthenticationError,
  NetworkError,
  RateLimitError,
  REDACTED,
  ServerError,
  TimeoutError,
} from '@blockwire/core/operations';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { type IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeError } from '../nodes/shared/errors';
import { control } from './support/emulator';
import { NODE } from './support/n8n-context';
import { clearRequestLog, requestsSeen, type RunOptions, runNode } from './support/run-node';
import { solanaAddresses, USDC } from './support/solana';

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 }); // with anvil: the JSON-RPC key sits in the URL path
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

const run = (parameters: IDataObject | ((index: number) => IDataObject), options?: RunOptions) =>
  runNode(emulator, parameters, options);

/** Everything an error holds, own properties included, as n8n would serialize or show it. */
const everything = (error: unknown) => JSON.stringify(error, Object.getOwnPropertyNames(error));

describe('error titles say what happened, short; the request goes to the description', () => {
  const request = {
    method: 'GET',
    path: `/erc20/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48/price?chain=0x1`,
    baseUrl: 'https://evm.example.com/api/v2.2',
    attempts: 1,
  };

  it('the service’s request id, when the answer had one, ends the description (to quote to support)', () => {
    const error = toNodeError(
      NODE,
      new AuthenticationError({ status: 401, ...request, requestId: 'req_7Hq2' }),
    );
    expect(error.message).toBe('Blockwire refused the API key (401)');
    expect(error.description).toMatch(/Request id: req_7Hq2\.$/);
  });

  it('401: "Blockwire refused the API key (401)", the path (not the URL) in the description', () => {
    const error = toNodeError(
      NODE,
      new AuthenticationError({ status: 401, ...request, serviceMessage: 'Invalid key' }),
    );
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toBe('Blockwire refused the API key (401)');
    expect(error.description).toContain(`Request: GET ${request.path}`);
    expect(error.description).toContain('Check the API Key in the Blockwire credentials');
    expect(error.description).toContain('Invalid key');
    expect(`${error.message} ${error.description}`).not.toContain(request.baseUrl);
    expect((error as NodeApiError).httpCode).toBe('401');
    expect(error.description).not.toContain('Request id');
  });

  it('429: "Rate limited by Blockwire (429): retry after 2 s"', () => {
    const limited = new RateLimitError({ status: 429, ...request, retryAfterMs: 1_500 });
    expect(toNodeError(NODE, limited).message).toBe('Rate limited by Blockwire (429): retry after 2 s');
    expect(toNodeError(NODE, new RateLimitError({ status: 429, ...request })).message).toBe(
      'Rate limited by Blockwire (429)',
    );
  });

  it('other failures: a title without the URL for 5xx, timeouts and the network', () => {
    const cases = [
      [new ServerError({ status: 503, ...request, attempts: 3 }), 'Blockwire failed to answer (503)'],
      [new TimeoutError(30_000, request), 'No answer from Blockwire within 30000 ms'],
      // n8n's own words for a refused connection (NodeApiError maps the code to them).
      [
        new NetworkError('Connection refused', { ...request, code: 'ECONNREFUSED' }),
        'The service refused the connection - perhaps it is offline',
      ],
    ] as const;
    for (const [sdkError, title] of cases) {
      expect(sdkError.message).toContain(request.baseUrl); // what the SDK says, URL and all
      const error = toNodeError(NODE, sdkError);
      expect(error.message).toBe(title);
      expect(error.description).toContain(`Request: GET ${request.path}`);
      expect(`${error.message} ${error.description}`).not.toContain('https://');
    }
  });

  it('through the node: a wrong key on JSON-RPC (key in the URL path) and on REST, the key masked everywhere', async () => {
    const key = ['wrong', 'key', 'in', 'the', 'path'].join('-');
    for (const parameters of [
      { resource: 'rpc', operation: 'getBlockNumber', chain: 'eth' },
      { resource: 'entity', operation: 'get', entityId: 'binance' },
    ]) {
      const error = (await run(parameters, { apiKey: key }).catch((e: unknown) => e)) as NodeApiError;
      expect(error).toBeInstanceOf(NodeApiError);
      expect(error.message).toBe('Blockwire refused the API key (401)');
      expect(error.description).toMatch(/Request: (GET|POST) \//);
      expect(everything(error)).not.toContain(key);
      if (parameters.resource === 'rpc') expect(error.description).toContain(REDACTED);
      const [item] = await run(parameters, { apiKey: key, continueOnFail: true });
      expect(item?.json.error).toBe('Blockwire refused the API key (401)');
      expect(JSON.stringify(item)).not.toContain(key);
    }
  });

  it('through the node: a 429 whose Retry-After is longer than the retries wait says how long', async () => {
    await control(emulator, '/faults', {
      interface: 'evm',
      rate: 1,
      statuses: [429],
      retryAfterSeconds: 120,
    });
    try {
      const error = (await run({ resource: 'entity', operation: 'get', entityId: 'binance' }).catch(
        (e: unknown) => e,
      )) as NodeApiError;
      expect(error.message).toBe('Rate limited by Blockwire (429): retry after 120 s');
      expect(error.description).toContain('Request: GET /entities/binance');
      expect(error.description).not.toContain('http');
    } finally {
      await fetch(`${emulator.control}/faults`, { method: 'DELETE' });
    }
  });
});

describe('an item-level error names the input item', () => {
  const addresses = solanaAddresses(500);
  addresses[0] = USDC;
  addresses[37] = 'not-base58-0OIl';
  const parameters = (index: number) => ({
    resource: 'tokenPrice',
    operation: 'getSolana',
    addresses: addresses[index],
  });

  it('one malformed address among 500 rows: "Addresses (entry 1) in item 37", and that item is the failed one', async () => {
    const error = (await run(parameters, { count: 500 }).catch((e: unknown) => e)) as NodeOperationError;
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/^Addresses \(entry 1\) in item 37: /);
    expect(error.context.itemIndex).toBe(37);
  });

  it('under Continue On Fail, the error is on item 37 only; the 499 others are answered, in 5 requests', async () => {
    await clearRequestLog(emulator);
    const output = await run(parameters, { count: 500, continueOnFail: true });
    expect(output).toHaveLength(500);
    const failed = output.filter((item) => item.json.error !== undefined);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ pairedItem: { item: 37 }, json: { itemIndex: 37 } });
    expect(failed[0]?.json.error).toMatch(/^Addresses \(entry 1\) in item 37: /);
    expect(output[0]?.json).toMatchObject({ tokenAddress: USDC, found: true });
    expect(output.filter((item) => item.json.found !== undefined)).toHaveLength(499);
    expect(await requestsSeen(emulator, 'solana')).toHaveLength(5);
  });

  it('a single item is not numbered: the message starts with the parameter', async () => {
    const error = (await run({ resource: 'entity', operation: 'get', entityId: '' }).catch(
      (e: unknown) => e,
    )) as NodeOperationError;
    expect(error.message).toMatch(/^Entity ID: /);
  });
});
