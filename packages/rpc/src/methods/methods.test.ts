import { createClient, ResponseValidationError, ValidationError } from '@blockwire/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../client.js';
import { createRpcClient } from '../create-rpc-client.js';
import { MAX_LOG_BLOCK_RANGE } from '../log-filter.js';
import { encodeParams } from '../method.js';
import * as fixtures from '../testing/fixtures.js';
import { callsOf, json, startServer } from '../testing/server.js';
import { methods } from './index.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
let closeClient: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeClient?.();
  await server?.close();
  server = undefined;
});

// A realistic key: the SDK masks any run of 8 of its characters (or all of a shorter key) in what
// it reports, so a one-letter key would be masked in every message that holds the letter.
const API_KEY = 'methods-test-key-0123456789';

/** An RPC client whose node answers every call with `result`. */
async function rpcAnswering(result: unknown): Promise<RpcClient> {
  server = await startServer((req, res) => {
    const replies = callsOf(req.json).map((call) => ({ jsonrpc: '2.0', id: call.id, result }));
    json(res, 200, Array.isArray(req.json) ? replies : replies[0]);
  });
  const client = createClient({ apiKey: API_KEY, baseUrls: { node: server.url }, retry: false });
  closeClient = () => client.close();
  return createRpcClient(client, { chain: 'arbitrum', batch: false });
}

const HASH = fixtures.BLOCK_HASH;
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const KEY = `0x${'0'.repeat(63)}1`;

const wire: [string, (rpc: RpcClient) => Promise<unknown>, string, unknown[]][] = [
  ['getBlockByHash (hashes)', (rpc) => rpc.getBlockByHash(HASH), 'eth_getBlockByHash', [HASH, false]],
  ['getBlockByHash (full)', (rpc) => rpc.getBlockByHash(HASH, true), 'eth_getBlockByHash', [HASH, true]],
  ['getBlockByNumber 0', (rpc) => rpc.getBlockByNumber(0), 'eth_getBlockByNumber', ['0x0', false]],
  [
    'getBlockByNumber bigint',
    (rpc) => rpc.getBlockByNumber(255n, true),
    'eth_getBlockByNumber',
    ['0xff', true],
  ],
  [
    'getBlockByNumber padded hex',
    (rpc) => rpc.getBlockByNumber('0x00ff'),
    'eth_getBlockByNumber',
    ['0xff', false],
  ],
  [
    'getBlockByNumber decimal text',
    (rpc) => rpc.getBlockByNumber('12'),
    'eth_getBlockByNumber',
    ['0xc', false],
  ],
  [
    'getBlockByNumber tag',
    (rpc) => rpc.getBlockByNumber('pending'),
    'eth_getBlockByNumber',
    ['pending', false],
  ],
  [
    'getUncleByBlockHashAndIndex',
    (rpc) => rpc.getUncleByBlockHashAndIndex(HASH, 0),
    'eth_getUncleByBlockHashAndIndex',
    [HASH, '0x0'],
  ],
  [
    'getUncleByBlockNumberAndIndex',
    (rpc) => rpc.getUncleByBlockNumberAndIndex('earliest', '0x01'),
    'eth_getUncleByBlockNumberAndIndex',
    ['earliest', '0x1'],
  ],
  [
    'getUncleByBlockNumberAndIndex number',
    (rpc) => rpc.getUncleByBlockNumberAndIndex(1_000_000, 1n),
    'eth_getUncleByBlockNumberAndIndex',
    ['0xf4240', '0x1'],
  ],
  ['getBlockReceipts', (rpc) => rpc.getBlockReceipts('latest'), 'eth_getBlockReceipts', ['latest']],
  ['getTransactionByHash', (rpc) => rpc.getTransactionByHash(HASH), 'eth_getTransactionByHash', [HASH]],
  ['getTransactionReceipt', (rpc) => rpc.getTransactionReceipt(HASH), 'eth_getTransactionReceipt', [HASH]],
  ['getProof default tag', (rpc) => rpc.getProof(ADDRESS, [KEY]), 'eth_getProof', [ADDRESS, [KEY], 'latest']],
  ['getProof block', (rpc) => rpc.getProof(ADDRESS, [], 5), 'eth_getProof', [ADDRESS, [], '0x5']],
  ['getProof short key', (rpc) => rpc.getProof(ADDRESS, ['0x1']), 'eth_getProof', [ADDRESS, [KEY], 'latest']],
  ['getBlockNumber', (rpc) => rpc.getBlockNumber(), 'eth_blockNumber', []],
  ['getBalance default tag', (rpc) => rpc.getBalance(ADDRESS), 'eth_getBalance', [ADDRESS, 'latest']],
  [
    'getBalance lower case',
    (rpc) => rpc.getBalance(ADDRESS.toLowerCase(), 7n),
    'eth_getBalance',
    [ADDRESS.toLowerCase(), '0x7'],
  ],
  [
    'getStorageAt slot number',
    (rpc) => rpc.getStorageAt(ADDRESS, 1),
    'eth_getStorageAt',
    [ADDRESS, KEY, 'latest'],
  ],
  [
    'ethCall',
    (rpc) => rpc.ethCall({ to: ADDRESS, data: '0x18160ddd', value: 10 }),
    'eth_call',
    [{ to: ADDRESS, data: '0x18160ddd', value: '0xa' }, 'latest'],
  ],
  [
    'getLogs range',
    (rpc) => rpc.getLogs({ fromBlock: 100, toBlock: 100 + 9_999, address: [ADDRESS] }),
    'eth_getLogs',
    [{ fromBlock: '0x64', toBlock: '0x2773', address: [ADDRESS] }],
  ],
  [
    'getFeeHistory',
    (rpc) => rpc.getFeeHistory(4, 'latest', [10, 50]),
    'eth_feeHistory',
    ['0x4', 'latest', [10, 50]],
  ],
  [
    'getTransactionByBlockNumberAndIndex',
    (rpc) => rpc.getTransactionByBlockNumberAndIndex(3, 2),
    'eth_getTransactionByBlockNumberAndIndex',
    ['0x3', '0x2'],
  ],
];

describe('what each method sends', () => {
  it.each(wire)('%s', async (_name, invoke, method, params) => {
    const rpc = await rpcAnswering(null);
    // A null answer is refused by methods whose result is never null: only what was sent counts here.
    await invoke(rpc).catch((error: unknown) => expect(error).toBeInstanceOf(ResponseValidationError));
    expect(server!.requests).toHaveLength(1);
    const [sent] = server!.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe(`/arbitrum/${API_KEY}`);
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.json).toEqual({ jsonrpc: '2.0', id: 1, method, params });
  });

  // Every method file, from its own examples: the positional function sends what the named
  // arguments encode to, so a new method is covered without a line here.
  it.each(
    methods.flatMap((m) => m.examples.map((example, i) => [`${m.id} example ${i}`, m, example] as const)),
  )('%s', async (_name, method, example) => {
    const rpc = await rpcAnswering(null);
    const input = example.input as Record<string, unknown>;
    const invoke = (rpc as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method.id]!;
    await invoke(...method.args.map((name) => input[name])).catch(() => undefined);
    expect(server!.requests.map((r) => r.json)).toEqual([
      { jsonrpc: '2.0', id: 1, method: method.method, params: encodeParams(method, input as never) },
    ]);
  });
});

const rejected: [string, (rpc: RpcClient) => Promise<unknown>, string[]][] = [
  ['a short hash', (rpc) => rpc.getBlockByHash('0x1234'), ['hash']],
  ['a hash without 0x', (rpc) => rpc.getTransactionByHash('ab'.repeat(32)), ['hash']],
  ['a non-boolean fullTransactions', (rpc) => rpc.getBlockByHash(HASH, 'yes' as never), ['fullTransactions']],
  ['a negative block number', (rpc) => rpc.getBlockByNumber(-1), ['blockTag']],
  ['a fractional block number', (rpc) => rpc.getBlockByNumber(1.5), ['blockTag']],
  ['an unknown tag', (rpc) => rpc.getBlockByNumber('finalised' as never), ['blockTag']],
  ['an empty hex quantity', (rpc) => rpc.getBlockReceipts('0x'), ['blockTag']],
  ['a negative bigint', (rpc) => rpc.getBlockReceipts(-2n), ['blockTag']],
  ['a bad index', (rpc) => rpc.getUncleByBlockHashAndIndex(HASH, -1), ['index']],
  [
    'two bad arguments',
    (rpc) => rpc.getUncleByBlockNumberAndIndex('soon' as never, 'x' as never),
    ['blockTag', 'index'],
  ],
  [
    'a missing receipt hash',
    (rpc) => (rpc.getTransactionReceipt as (h?: string) => Promise<unknown>)(),
    ['hash'],
  ],
  ['a short address', (rpc) => rpc.getProof('0x1234', []), ['address']],
  ['a storage key past 32 bytes', (rpc) => rpc.getProof(ADDRESS, [KEY, `${KEY}0`]), ['storageKeys.1']],
  ['storage keys not in an array', (rpc) => rpc.getProof(ADDRESS, KEY as never), ['storageKeys']],
  ['a bad proof block', (rpc) => rpc.getProof(ADDRESS, [], 'yesterday' as never), ['blockTag']],
  ['a wrong EIP-55 checksum', (rpc) => rpc.getBalance(ADDRESS.replace('cffFb', 'cfffb')), ['address']],
  [
    'a wrong checksum inside a call',
    (rpc) => rpc.ethCall({ to: ADDRESS.replace('aB88', 'ab88') }),
    ['transaction.to'],
  ],
  ['calldata of odd length', (rpc) => rpc.ethCall({ to: ADDRESS, data: '0x123' }), ['transaction.data']],
  ['a call that is not an object', (rpc) => rpc.estimateGas('0x' as never), ['transaction']],
  [
    'a log range past MAX_LOG_BLOCK_RANGE',
    (rpc) => rpc.getLogs({ fromBlock: 1, toBlock: 1 + MAX_LOG_BLOCK_RANGE }),
    ['filter.toBlock'],
  ],
  [
    'a log range ending before it starts',
    (rpc) => rpc.getLogs({ fromBlock: 10, toBlock: 9 }),
    ['filter.toBlock'],
  ],
  [
    'a block hash beside a range',
    (rpc) => rpc.getLogs({ blockHash: HASH, fromBlock: 1 }),
    ['filter.blockHash'],
  ],
  ['five topics', (rpc) => rpc.getLogs({ topics: [HASH, null, null, null, null] }), ['filter.topics']],
  ['a fee history of 0 blocks', (rpc) => rpc.getFeeHistory(0, 'latest'), ['blockCount']],
  ['percentiles out of order', (rpc) => rpc.getFeeHistory(2, 'latest', [50, 10]), ['rewardPercentiles']],
];

describe('argument rules', () => {
  it.each(rejected)('rejects %s, naming it, before any request', async (_name, invoke, paths) => {
    const rpc = await rpcAnswering(null);
    const error = await invoke(rpc).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(paths);
    for (const path of paths) expect((error as ValidationError).message).toContain(path);
    expect(server!.requests).toHaveLength(0);
  });
});

const parsed: [string, (rpc: RpcClient) => Promise<unknown>, unknown][] = [
  ['a full block with hashes', (rpc) => rpc.getBlockByHash(HASH), fixtures.fullBlock],
  [
    'a full block with transactions',
    (rpc) => rpc.getBlockByNumber('latest', true),
    { ...fixtures.fullBlock, transactions: [fixtures.fullTransaction, fixtures.minimalTransaction] },
  ],
  ['an older-style block', (rpc) => rpc.getBlockByNumber(1), fixtures.minimalBlock],
  ['an uncle', (rpc) => rpc.getUncleByBlockHashAndIndex(HASH, 0), fixtures.uncle],
  ['an uncle by number', (rpc) => rpc.getUncleByBlockNumberAndIndex(5, 0), fixtures.uncle],
  ['block receipts', (rpc) => rpc.getBlockReceipts(1), [fixtures.fullReceipt, fixtures.minimalReceipt]],
  ['a full transaction', (rpc) => rpc.getTransactionByHash(HASH), fixtures.fullTransaction],
  ['a legacy transaction', (rpc) => rpc.getTransactionByHash(HASH), fixtures.minimalTransaction],
  ['a full receipt', (rpc) => rpc.getTransactionReceipt(HASH), fixtures.fullReceipt],
  ['a pre-Byzantium receipt', (rpc) => rpc.getTransactionReceipt(HASH), fixtures.minimalReceipt],
  ['a proof', (rpc) => rpc.getProof(ADDRESS, [KEY]), fixtures.proof],
  ['a proof without storage', (rpc) => rpc.getProof(ADDRESS, []), fixtures.minimalProof],
];

describe('clear words for the mistakes people make', () => {
  it('names the field and the right checksum of a mistyped mixed-case address', async () => {
    const rpc = await rpcAnswering('0x0');
    await expect(rpc.getBalance(ADDRESS.replace('cffFb', 'cfffb'))).rejects.toThrow(
      /address: has a wrong EIP-55 checksum \(mixed case must be 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/,
    );
  });

  it('says how wide a log range is and what the limit is', async () => {
    const rpc = await rpcAnswering([]);
    await expect(rpc.getLogs({ fromBlock: '0x0', toBlock: 20_000 })).rejects.toThrow(
      /filter\.toBlock: is 20001 blocks from fromBlock; getLogs asks for at most 10000 \(MAX_LOG_BLOCK_RANGE\)/,
    );
  });
});

describe('results', () => {
  it.each(parsed)('returns %s as the node sent it', async (_name, invoke, body) => {
    const rpc = await rpcAnswering(body);
    await expect(invoke(rpc)).resolves.toEqual(body);
  });

  // A method whose result may be null (an unknown block) returns it; one whose result never is
  // (a balance, the chain id) refuses it as a broken answer.
  it.each(methods.map((m) => [m.id, m] as const))(
    '%s: a null result as its schema says',
    async (id, method) => {
      const rpc = await rpcAnswering(null);
      const input = method.examples[0]!.input as Record<string, unknown>;
      const invoke = (rpc as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[id]!;
      const answer = invoke(...method.args.map((name) => input[name]));
      if (method.result.safeParse(null).success) await expect(answer).resolves.toBeNull();
      else await expect(answer).rejects.toBeInstanceOf(ResponseValidationError);
    },
  );

  it('rejects a result that breaks the contract with ResponseValidationError naming the field', async () => {
    const { hash: _dropped, ...withoutHash } = fixtures.fullTransaction;
    const rpc = await rpcAnswering({ ...withoutHash, value: 1000 });
    const error = await rpc.getTransactionByHash(HASH).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path).sort()).toEqual(['hash', 'value']);
    expect((error as ResponseValidationError).operation).toBe('getTransactionByHash');
  });
});

describe('the method descriptors', () => {
  it('include the eight methods of the contract, each JSON-RPC method once', () => {
    const names = methods.map((m) => m.method);
    expect(names).toEqual(
      expect.arrayContaining([
        'eth_getBlockByHash',
        'eth_getBlockByNumber',
        'eth_getUncleByBlockHashAndIndex',
        'eth_getUncleByBlockNumberAndIndex',
        'eth_getBlockReceipts',
        'eth_getTransactionByHash',
        'eth_getTransactionReceipt',
        'eth_getProof',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
  });
});
