import {
  BadRequestError,
  type Client,
  type OperationInput,
  ResponseValidationError,
  ServerError,
  ValidationError,
} from '@blockwire/core';
import { buildRequest, inputFromRequest, matchPath } from '@blockwire/core/internal';
import { startServer, type TestServer } from '@blockwire/testing';
import { API_KEY, clientFor, STREAMS_BASE_PATH } from '@blockwire/testing/sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addBitcoinStreamAddress,
  addBitcoinStreamXpub,
  createBitcoinStream,
  deleteBitcoinStream,
  getBitcoinBlockWebhookData,
  getBitcoinStream,
  listBitcoinStreamAddresses,
  listBitcoinStreams,
  listBitcoinStreamXpubs,
  operations,
  removeBitcoinStreamAddress,
  removeBitcoinStreamXpub,
  replayBitcoinBlock,
  setBitcoinStreamStatus,
  updateBitcoinStream,
  updateEvmStreamStatus,
  updateSettings,
} from '../operations.js';

const EVM_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
// A UUID v1: Bitcoin stream ids are only "string" in the spec, so any UUID version is accepted.
const BTC_ID = '0b2b4a57-7f3c-11ee-b962-0242ac120002';
const ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const TPUB =
  'tpubDCxX2sYFS5bDkSe5GKKYHjBW7tgyN1R3UchpLJvdbf54ohxeGRtd8MbDUe1cguVHe4vnK68DsuD5MXjxi9EXx16rb9EnNsaF5KT99CinaJz';
const WEBHOOK = 'https://hooks.example.com/bitcoin?source=blockwire';

const evmStreamFull = {
  webhookUrl: 'https://hooks.example.com/evm',
  description: 'USDC transfers',
  chainIds: ['0x1', '0x89'],
  id: EVM_ID,
  status: 'paused',
  statusMessage: 'Stream is paused',
  updatedAt: '2026-11-20T10:00:00.000Z',
  amountOfAddresses: 2,
  tag: 'usdc',
  topic0: ['Transfer(address,address,uint256)'],
  allAddresses: false,
  includeNativeTxs: true,
  includeContractLogs: true,
  includeInternalTxs: false,
  includeAllTxLogs: false,
  getNativeBalances: [{ selectors: ['$from', '$to'], type: 'tx' }],
  abi: [{ type: 'event', name: 'Transfer', inputs: [] }],
  advancedOptions: [{ topic0: 'Transfer(address,address,uint256)', includeNativeTxs: true }],
  filterPossibleSpamAddresses: true,
  demo: false,
  triggers: [
    {
      contractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      functionAbi: { name: 'balanceOf', type: 'function' },
      inputs: ['$to'],
      topic0: 'Transfer(address,address,uint256)',
      callFrom: '0x0000000000000000000000000000000000000001',
    },
  ],
  // Unknown fields pass through.
  region: 'us-east-1',
};
const evmStreamMinimal = {
  webhookUrl: 'https://hooks.example.com/evm',
  description: '',
  chainIds: [],
  id: EVM_ID,
  status: 'active',
  statusMessage: '',
  updatedAt: '2026-11-20T10:00:00.000Z',
  amountOfAddresses: 0,
};

const bitcoinStreamFull = {
  id: BTC_ID,
  allAddresses: false,
  demo: false,
  description: 'Cold wallet watch',
  includeInputs: true,
  includeOutputs: true,
  isErrorSince: '2026-11-19T08:00:00.000Z',
  network: ['mainnet'],
  status: 'active',
  statusMessage: 'Stream is active',
  tag: 'cold-wallet',
  webhookUrl: WEBHOOK,
  amountOfAddresses: 3,
  updatedAt: '2026-11-20T10:00:00.000Z',
  createdAt: '2026-11-01T00:00:00.000Z',
};
const bitcoinStreamMinimal = { id: BTC_ID };

const blockDataFull = {
  streamId: BTC_ID,
  chainId: 'mainnet',
  confirmed: true,
  retries: 0,
  block: {
    height: '840000',
    hash: '0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5',
    timestamp: '1713571767',
  },
  transactions: [
    {
      txid: 'a0d1b7c0b0c4e6a1a3c3a5b1f27f3a0b5c0e7d2a9c1b8f3e4d5c6b7a8f9e0d1c',
      vin: [{ address: null, value: null }],
      vout: [{ value: 6.25, address: ADDRESS, scriptPubKey: { type: 'witness_v0_keyhash' } }],
      fee: 0,
    },
  ],
};

interface Case {
  name: string;
  call: (client: Client) => Promise<unknown>;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the streams base URL, as it must appear on the wire. */
  path: string;
  query?: Record<string, string[]>;
  /** The JSON body; undefined means the request has none. */
  body?: unknown;
  full: unknown;
  minimal: unknown;
}

const cases: Case[] = [
  {
    name: 'updateEvmStreamStatus',
    call: (client) => updateEvmStreamStatus(client, { id: EVM_ID, status: 'paused' }),
    method: 'POST',
    path: `/streams/evm/${EVM_ID}/status`,
    body: { status: 'paused' },
    full: evmStreamFull,
    minimal: evmStreamMinimal,
  },
  {
    name: 'updateSettings',
    call: (client) => updateSettings(client, { region: 'eu-central-1', secretKey: 'whsec-1' }),
    method: 'POST',
    path: '/settings',
    body: { region: 'eu-central-1', secretKey: 'whsec-1' },
    full: { region: 'eu-central-1', secretKey: 'whsec-1' },
    minimal: {},
  },
  {
    name: 'createBitcoinStream',
    call: (client) =>
      createBitcoinStream(client, {
        webhookUrl: WEBHOOK,
        description: 'Cold wallet watch',
        tag: 'cold-wallet',
        includeInputs: true,
        includeOutputs: false,
        allAddresses: false,
      }),
    method: 'PUT',
    path: '/streams/bitcoin',
    body: {
      webhookUrl: WEBHOOK,
      description: 'Cold wallet watch',
      tag: 'cold-wallet',
      network: ['mainnet'],
      includeInputs: true,
      includeOutputs: false,
      allAddresses: false,
    },
    full: bitcoinStreamFull,
    minimal: bitcoinStreamMinimal,
  },
  {
    name: 'updateBitcoinStream',
    call: (client) =>
      updateBitcoinStream(client, { id: BTC_ID, description: 'Renamed', includeInputs: false }),
    method: 'POST',
    path: `/streams/bitcoin/${BTC_ID}`,
    body: { description: 'Renamed', includeInputs: false },
    full: bitcoinStreamFull,
    minimal: bitcoinStreamMinimal,
  },
  {
    name: 'setBitcoinStreamStatus',
    call: (client) => setBitcoinStreamStatus(client, { id: BTC_ID, status: 'paused' }),
    method: 'POST',
    path: `/streams/bitcoin/${BTC_ID}/status`,
    body: { status: 'paused' },
    full: { ...bitcoinStreamFull, status: 'paused' },
    minimal: undefined,
  },
  {
    name: 'listBitcoinStreams',
    call: (client) => listBitcoinStreams(client, { limit: 25, cursor: 'page 2/abc' }),
    method: 'GET',
    path: '/streams/bitcoin',
    query: { limit: ['25'], cursor: ['page 2/abc'] },
    full: { total: 2, result: [bitcoinStreamFull, bitcoinStreamMinimal], cursor: 'next' },
    minimal: { total: 0, result: [] },
  },
  {
    name: 'getBitcoinStream',
    call: (client) => getBitcoinStream(client, { id: BTC_ID }),
    method: 'GET',
    path: `/streams/bitcoin/${BTC_ID}`,
    full: bitcoinStreamFull,
    minimal: bitcoinStreamMinimal,
  },
  {
    name: 'deleteBitcoinStream',
    call: (client) => deleteBitcoinStream(client, { id: BTC_ID }),
    method: 'DELETE',
    path: `/streams/bitcoin/${BTC_ID}`,
    full: bitcoinStreamFull,
    minimal: undefined,
  },
  {
    name: 'getBitcoinBlockWebhookData',
    call: (client) => getBitcoinBlockWebhookData(client, { chainId: 'mainnet', blockNumber: 840000 }),
    method: 'POST',
    path: '/streams/bitcoin/mainnet/block/840000',
    full: blockDataFull,
    minimal: {},
  },
  {
    name: 'replayBitcoinBlock',
    call: (client) =>
      replayBitcoinBlock(client, { chainId: 'mainnet', blockNumber: '840000', streamId: BTC_ID }),
    method: 'POST',
    path: `/streams/bitcoin/mainnet/block-to-webhook/840000/${BTC_ID}`,
    full: { success: true },
    minimal: undefined,
  },
  {
    name: 'listBitcoinStreamAddresses',
    call: (client) => listBitcoinStreamAddresses(client, { id: BTC_ID, limit: '10', cursor: 'c1' }),
    method: 'GET',
    path: `/streams/bitcoin/${BTC_ID}/address`,
    query: { limit: ['10'], cursor: ['c1'] },
    full: { total: 1, cursor: null, result: [{ address: ADDRESS, createdAt: '2026-11-20T10:00:00Z' }] },
    minimal: {},
  },
  {
    name: 'addBitcoinStreamAddress',
    call: (client) => addBitcoinStreamAddress(client, { id: BTC_ID, address: ADDRESS }),
    method: 'POST',
    path: `/streams/bitcoin/${BTC_ID}/address`,
    body: { address: ADDRESS },
    full: { streamId: BTC_ID, address: ADDRESS },
    minimal: undefined,
  },
  {
    name: 'removeBitcoinStreamAddress',
    call: (client) => removeBitcoinStreamAddress(client, { id: BTC_ID, address: ADDRESS }),
    method: 'DELETE',
    path: `/streams/bitcoin/${BTC_ID}/address`,
    body: { address: ADDRESS },
    full: { streamId: BTC_ID, address: ADDRESS },
    minimal: undefined,
  },
  {
    name: 'listBitcoinStreamXpubs',
    call: (client) => listBitcoinStreamXpubs(client, { id: BTC_ID }),
    method: 'GET',
    path: `/streams/bitcoin/${BTC_ID}/xpub`,
    full: { total: 1, result: [{ id: 'xp-1', xpub: ZPUB, derivedAddresses: 40 }] },
    minimal: {},
  },
  {
    name: 'addBitcoinStreamXpub',
    call: (client) => addBitcoinStreamXpub(client, { id: BTC_ID, xpub: ZPUB }),
    method: 'POST',
    path: `/streams/bitcoin/${BTC_ID}/xpub`,
    body: { xpub: ZPUB },
    full: { id: 'xp-1', xpub: ZPUB },
    minimal: undefined,
  },
  {
    name: 'removeBitcoinStreamXpub',
    call: (client) => removeBitcoinStreamXpub(client, { id: BTC_ID, xpubId: 'xp 1+2' }),
    method: 'DELETE',
    path: `/streams/bitcoin/${BTC_ID}/xpub/xp%201%2B2`,
    full: { id: 'xp 1+2' },
    minimal: undefined,
  },
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

const operationById = (id: string) => operations.find((operation) => operation.id === id)!;

describe('operations', () => {
  it('has one operation per case here, all on the streams interface', () => {
    // An endpoint added later has no case here until one is written: a case left behind fails.
    expect(operations.map((operation) => operation.id)).toEqual(
      expect.arrayContaining(cases.map((c) => c.name)),
    );
    expect(operations.every((operation) => operation.api === 'streams')).toBe(true);
  });

  it('marks the calls that are safe to repeat', () => {
    const repeatable = new Set([
      'updateEvmStreamStatus',
      'updateSettings',
      'updateBitcoinStream',
      'setBitcoinStreamStatus',
      'listBitcoinStreams',
      'getBitcoinStream',
      'getBitcoinBlockWebhookData',
      'listBitcoinStreamAddresses',
      'listBitcoinStreamXpubs',
    ]);
    for (const { name } of cases) {
      expect(operationById(name).idempotent, name).toBe(repeatable.has(name));
    }
  });
});

describe.each(cases)('$name', (c) => {
  it('sends the exact request and returns the full response', async () => {
    server.respond = () => ({ body: c.full });
    const result = await c.call(client);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe(c.method);
    expect(request!.path).toBe(`${STREAMS_BASE_PATH}${c.path}`);
    expect(request!.query).toEqual(c.query ?? {});
    expect(request!.headers['x-api-key']).toBe(API_KEY);
    expect(request!.headers.accept).toBe('application/json');
    if (c.body === undefined) {
      expect(request!.body).toBe('');
      expect(request!.headers['content-type']).toBeUndefined();
    } else {
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.json).toEqual(c.body);
    }
    expect(result).toEqual(c.full);
  });

  it('reads back from the request it sent, as the emulator does with inputFromRequest', async () => {
    server.respond = () => ({ body: c.minimal });
    await c.call(client);
    const request = server.requests[0]!;
    const path = request.path.slice(STREAMS_BASE_PATH.length);
    const matching = operations.filter(
      (operation) => operation.method === request.method && matchPath(operation, path),
    );
    expect(matching.map((operation) => operation.id)).toEqual([c.name]);
    const operation = matching[0]!;
    const query = Object.fromEntries(
      Object.entries(request.query).map(([name, values]) => [name, values[0]]),
    );
    const raw = inputFromRequest(operation, {
      params: matchPath(operation, path)!,
      query,
      body: request.json,
    });
    const parsed = operation.input.safeParse(raw);
    expect(parsed.error?.issues).toBeUndefined();
    const rebuilt = buildRequest(operation, parsed.data as Record<string, unknown>);
    expect(rebuilt.path).toBe(c.path);
    expect(rebuilt.body).toEqual(c.body);
  });

  it('accepts a minimal response', async () => {
    server.respond = () => ({ body: c.minimal });
    await expect(c.call(client)).resolves.toEqual(c.minimal);
  });
});

describe('responses that break the contract', () => {
  it.each([
    [
      'updateEvmStreamStatus',
      () => updateEvmStreamStatus(client, { id: EVM_ID, status: 'active' }),
      'chainIds',
    ],
    ['listBitcoinStreams', () => listBitcoinStreams(client), 'total'],
    ['getBitcoinStream', () => getBitcoinStream(client, { id: BTC_ID }), 'id'],
    ['updateSettings', () => updateSettings(client, {}), 'region'],
  ])(
    '%s: a broken required or typed field is a ResponseValidationError naming it',
    async (_name, call, field) => {
      server.respond = () => ({
        body:
          field === 'chainIds'
            ? { ...evmStreamFull, chainIds: undefined }
            : field === 'total'
              ? { result: [] }
              : field === 'id'
                ? { description: 'no id' }
                : { region: 'mars-north-1' },
      });
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toContain(field);
    },
  );
});

type Rejection = [name: string, call: () => Promise<unknown>, field: string, message: RegExp];

const withStream = { id: BTC_ID };
const rejections: Rejection[] = [
  // updateEvmStreamStatus
  [
    'updateEvmStreamStatus id not v4',
    () => updateEvmStreamStatus(client, { id: BTC_ID, status: 'active' }),
    'id',
    /UUID v4/,
  ],
  [
    'updateEvmStreamStatus id missing',
    () => updateEvmStreamStatus(client, { status: 'active' } as never),
    'id',
    /string/,
  ],
  [
    'updateEvmStreamStatus status unknown',
    () => updateEvmStreamStatus(client, { id: EVM_ID, status: 'deleted' as never }),
    'status',
    /active, paused, error, terminated/,
  ],
  // updateSettings
  [
    'updateSettings region',
    () => updateSettings(client, { region: 'eu-west-1' as never }),
    'region',
    /us-east-1, us-west-2, eu-central-1, ap-southeast-1/,
  ],
  ['updateSettings empty secret', () => updateSettings(client, { secretKey: '' }), 'secretKey', /empty/],
  [
    'updateSettings unknown field',
    () => updateSettings(client, { regoin: 'us-east-1' } as never),
    '',
    /unknown field\(s\) regoin/,
  ],
  // createBitcoinStream
  [
    'createBitcoinStream webhookUrl missing',
    () => createBitcoinStream(client, {} as never),
    'webhookUrl',
    /string/,
  ],
  [
    'createBitcoinStream webhookUrl not a URL',
    () => createBitcoinStream(client, { webhookUrl: 'hooks.example.com' }),
    'webhookUrl',
    /http\(s\) URL/,
  ],
  [
    'createBitcoinStream webhookUrl not http',
    () => createBitcoinStream(client, { webhookUrl: 'ftp://hooks.example.com' }),
    'webhookUrl',
    /http\(s\) URL/,
  ],
  [
    'createBitcoinStream testnet',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, network: ['testnet'] }),
    'network',
    /mainnet/,
  ],
  [
    'createBitcoinStream two networks',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, network: ['mainnet', 'mainnet'] }),
    'network',
    /mainnet/,
  ],
  [
    'createBitcoinStream network as a string',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, network: 'mainnet' as never }),
    'network',
    /mainnet/,
  ],
  [
    'createBitcoinStream includeInputs',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, includeInputs: 'yes' as never }),
    'includeInputs',
    /true or false/,
  ],
  [
    'createBitcoinStream includeOutputs',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, includeOutputs: 1 as never }),
    'includeOutputs',
    /true or false/,
  ],
  [
    'createBitcoinStream allAddresses',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, allAddresses: null as never }),
    'allAddresses',
    /true or false/,
  ],
  [
    'createBitcoinStream description',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, description: 5 as never }),
    'description',
    /string/,
  ],
  [
    'createBitcoinStream tag',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, tag: ['a'] as never }),
    'tag',
    /string/,
  ],
  [
    'createBitcoinStream unknown field',
    () => createBitcoinStream(client, { webhookUrl: WEBHOOK, chainIds: ['0x1'] } as never),
    '',
    /unknown field\(s\) chainIds/,
  ],
  // updateBitcoinStream
  ['updateBitcoinStream id', () => updateBitcoinStream(client, { id: 'stream-1', tag: 'x' }), 'id', /UUID/],
  [
    'updateBitcoinStream nothing to update',
    () => updateBitcoinStream(client, withStream),
    '',
    /nothing to update/,
  ],
  [
    'updateBitcoinStream webhookUrl',
    () => updateBitcoinStream(client, { ...withStream, webhookUrl: 'nope' }),
    'webhookUrl',
    /http\(s\) URL/,
  ],
  [
    'updateBitcoinStream network',
    () => updateBitcoinStream(client, { ...withStream, network: ['testnet'] }),
    'network',
    /mainnet/,
  ],
  // setBitcoinStreamStatus
  [
    'setBitcoinStreamStatus status',
    () => setBitcoinStreamStatus(client, { ...withStream, status: 'terminated' as never }),
    'status',
    /active or paused/,
  ],
  [
    'setBitcoinStreamStatus id',
    () => setBitcoinStreamStatus(client, { id: '', status: 'active' }),
    'id',
    /UUID/,
  ],
  // listBitcoinStreams
  ['listBitcoinStreams negative limit', () => listBitcoinStreams(client, { limit: -1 }), 'limit', /integer/],
  [
    'listBitcoinStreams fractional limit',
    () => listBitcoinStreams(client, { limit: 1.5 }),
    'limit',
    /integer/,
  ],
  [
    'listBitcoinStreams text limit',
    () => listBitcoinStreams(client, { limit: 'ten' as never }),
    'limit',
    /integer/,
  ],
  ['listBitcoinStreams cursor', () => listBitcoinStreams(client, { cursor: 2 as never }), 'cursor', /string/],
  // getBitcoinStream, deleteBitcoinStream
  ['getBitcoinStream id', () => getBitcoinStream(client, { id: `${BTC_ID}x` }), 'id', /UUID/],
  ['deleteBitcoinStream id', () => deleteBitcoinStream(client, {} as never), 'id', /string/],
  // getBitcoinBlockWebhookData, replayBitcoinBlock
  [
    'getBitcoinBlockWebhookData chainId',
    () => getBitcoinBlockWebhookData(client, { chainId: ' ', blockNumber: 1 }),
    'chainId',
    /empty/,
  ],
  [
    'getBitcoinBlockWebhookData blockNumber',
    () => getBitcoinBlockWebhookData(client, { chainId: 'mainnet', blockNumber: -5 }),
    'blockNumber',
    /integer/,
  ],
  [
    'getBitcoinBlockWebhookData blockNumber hex',
    () => getBitcoinBlockWebhookData(client, { chainId: 'mainnet', blockNumber: '0x10' as never }),
    'blockNumber',
    /integer/,
  ],
  [
    'replayBitcoinBlock streamId',
    () => replayBitcoinBlock(client, { chainId: 'mainnet', blockNumber: 1, streamId: 'abc' }),
    'streamId',
    /UUID/,
  ],
  [
    'replayBitcoinBlock blockNumber missing',
    () => replayBitcoinBlock(client, { chainId: 'mainnet', streamId: BTC_ID } as never),
    'blockNumber',
    /integer/,
  ],
  // addresses
  [
    'listBitcoinStreamAddresses limit',
    () => listBitcoinStreamAddresses(client, { ...withStream, limit: '1e3' }),
    'limit',
    /integer/,
  ],
  ['listBitcoinStreamAddresses id', () => listBitcoinStreamAddresses(client, { id: 'x' }), 'id', /UUID/],
  [
    'addBitcoinStreamAddress a list',
    () => addBitcoinStreamAddress(client, { ...withStream, address: [ADDRESS, ADDRESS] as never }),
    'address',
    /one address per request.*addBitcoinStreamAddresses/,
  ],
  [
    'addBitcoinStreamAddress testnet',
    () =>
      addBitcoinStreamAddress(client, {
        ...withStream,
        address: 'tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0',
      }),
    'address',
    /testnet/,
  ],
  [
    'addBitcoinStreamAddress checksum',
    () => addBitcoinStreamAddress(client, { ...withStream, address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb' }),
    'address',
    /checksum/,
  ],
  [
    'addBitcoinStreamAddress an EVM address',
    () =>
      addBitcoinStreamAddress(client, {
        ...withStream,
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
      }),
    'address',
    /not a valid Bitcoin address/,
  ],
  [
    'addBitcoinStreamAddress missing',
    () => addBitcoinStreamAddress(client, withStream as never),
    'address',
    /string/,
  ],
  [
    'removeBitcoinStreamAddress checksum',
    () =>
      removeBitcoinStreamAddress(client, {
        ...withStream,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv',
      }),
    'address',
    /checksum/,
  ],
  [
    'removeBitcoinStreamAddress a list',
    () => removeBitcoinStreamAddress(client, { ...withStream, address: [ADDRESS] as never }),
    'address',
    /one address per request/,
  ],
  // xpubs
  [
    'listBitcoinStreamXpubs cursor',
    () => listBitcoinStreamXpubs(client, { ...withStream, cursor: {} as never }),
    'cursor',
    /string/,
  ],
  [
    'addBitcoinStreamXpub testnet',
    () => addBitcoinStreamXpub(client, { ...withStream, xpub: TPUB }),
    'xpub',
    /testnet/,
  ],
  [
    'addBitcoinStreamXpub checksum',
    () => addBitcoinStreamXpub(client, { ...withStream, xpub: `${ZPUB.slice(0, -1)}t` }),
    'xpub',
    /checksum/,
  ],
  [
    'addBitcoinStreamXpub an address',
    () => addBitcoinStreamXpub(client, { ...withStream, xpub: ADDRESS }),
    'xpub',
    /extended public key/,
  ],
  [
    'removeBitcoinStreamXpub xpubId',
    () => removeBitcoinStreamXpub(client, { ...withStream, xpubId: '' }),
    'xpubId',
    /empty/,
  ],
  [
    'removeBitcoinStreamXpub id',
    () => removeBitcoinStreamXpub(client, { id: 'nope', xpubId: 'xp-1' }),
    'id',
    /UUID/,
  ],
  // Path segments that would change the route (`…/xpub/..` is the delete-stream route).
  ...(
    [
      [
        'removeBitcoinStreamXpub',
        'xpubId',
        (v: string) => removeBitcoinStreamXpub(client, { ...withStream, xpubId: v }),
      ],
      [
        'getBitcoinBlockWebhookData',
        'chainId',
        (v: string) => getBitcoinBlockWebhookData(client, { chainId: v, blockNumber: 1 }),
      ],
      [
        'replayBitcoinBlock',
        'chainId',
        (v: string) => replayBitcoinBlock(client, { chainId: v, blockNumber: 1, streamId: BTC_ID }),
      ],
    ] as const
  ).flatMap(([name, field, call]) =>
    ['..', ' .. ', '.', '%2e%2E', '../x'].map(
      (value): Rejection => [
        `${name} ${field} ${JSON.stringify(value)}`,
        () => call(value),
        field,
        /must not (be "\." or "\.\."|contain)/,
      ],
    ),
  ),
];

describe('input rules', () => {
  it.each(rejections)(
    '%s: a ValidationError naming the field, and no request',
    async (_name, call, field, message) => {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      const issue = (error as ValidationError).issues.find((i) => i.path === field);
      expect(issue, `issues: ${JSON.stringify((error as ValidationError).issues)}`).toBeDefined();
      expect(issue!.message).toMatch(message);
      if (field) expect((error as Error).message).toContain(`${field}:`);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('lists every problem of an input at once', async () => {
    const error = await createBitcoinStream(client, {
      webhookUrl: 'x',
      network: ['testnet'],
      includeInputs: 'no' as never,
    }).catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((issue) => issue.path).sort()).toEqual([
      'includeInputs',
      'network',
      'webhookUrl',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a webhook URL with surrounding whitespace or a control character, which a URL parser would silently drop', async () => {
    for (const webhookUrl of [
      'https://example.com/hook\n',
      ' https://example.com/hook',
      'https://exa\tmple.com/hook',
      'https://example.com/ho\u0000ok',
    ]) {
      const error = await createBitcoinStream(client, { webhookUrl }).catch((e: unknown) => e);
      expect((error as ValidationError).issues).toEqual([
        { path: 'webhookUrl', message: expect.stringMatching(/whitespace or contain control characters/) },
      ]);
      const update = await updateBitcoinStream(client, { id: BTC_ID, webhookUrl }).catch((e: unknown) => e);
      expect(update).toBeInstanceOf(ValidationError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('accepts uppercase UUIDs, digit strings for numbers, and a Bitcoin stream id of any UUID version', async () => {
    await updateEvmStreamStatus(client, { id: EVM_ID.toUpperCase(), status: 'error' }).catch(() => undefined);
    await getBitcoinStream(client, { id: '00000000-0000-0000-0000-000000000000' }).catch(() => undefined);
    await getBitcoinBlockWebhookData(client, { chainId: 'mainnet', blockNumber: '0' });
    expect(server.requests.map((request) => request.path.slice(STREAMS_BASE_PATH.length))).toEqual([
      `/streams/evm/${EVM_ID.toUpperCase()}/status`,
      '/streams/bitcoin/00000000-0000-0000-0000-000000000000',
      '/streams/bitcoin/mainnet/block/0',
    ]);
  });

  it('sends network ["mainnet"] when it is given explicitly, and leaves it out of an update that does not set it', async () => {
    await createBitcoinStream(client, { webhookUrl: 'http://127.0.0.1:9/hook', network: ['mainnet'] }).catch(
      () => undefined,
    );
    await updateBitcoinStream(client, { id: BTC_ID, network: ['mainnet'] }).catch(() => undefined);
    await updateBitcoinStream(client, { id: BTC_ID, webhookUrl: WEBHOOK }).catch(() => undefined);
    expect(server.requests.map((request) => request.json)).toEqual([
      { webhookUrl: 'http://127.0.0.1:9/hook', network: ['mainnet'] },
      { network: ['mainnet'] },
      { webhookUrl: WEBHOOK },
    ]);
  });

  it('updateSettings with no field sends an empty body', async () => {
    await updateSettings(client);
    expect(server.requests[0]!.json).toEqual({});
  });
});

describe('retries', () => {
  let retrying: Client;
  beforeAll(() => {
    retrying = clientFor(server, { retry: { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0 } });
  });
  afterAll(() => retrying.close());
  afterEach(() => {
    server.requests.length = 0;
  });

  function failOnceWith503() {
    server.respond = () =>
      server.requests.length === 1 ? { status: 503, body: { message: 'try later' } } : { body: {} };
  }

  it('does not retry createBitcoinStream after a 503: a second stream could be created', async () => {
    failOnceWith503();
    const error = await createBitcoinStream(retrying, { webhookUrl: WEBHOOK }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it('retries listBitcoinStreams after a 503', async () => {
    server.respond = () =>
      server.requests.length === 1
        ? { status: 503, body: { message: 'try later' } }
        : { body: { total: 1, result: [bitcoinStreamMinimal] } };
    await expect(listBitcoinStreams(retrying, { limit: 1 })).resolves.toEqual({
      total: 1,
      result: [bitcoinStreamMinimal],
    });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.url).toBe(server.requests[0]!.url);
  });

  it.each(cases)('$name is retried after a 503 only when it is safe to repeat', async (c) => {
    const operation = operations.find((o) => o.id === c.name)!;
    server.respond = () =>
      server.requests.length === 1 ? { status: 503, body: { message: 'try later' } } : { body: c.minimal };
    const outcome = await c.call(retrying).then(
      () => 'ok',
      (e: unknown) => e,
    );
    if (operation.idempotent) {
      expect(outcome).toBe('ok');
      expect(server.requests).toHaveLength(2);
    } else {
      expect(outcome).toBeInstanceOf(ServerError);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('reports a rejected request as a typed ApiError with the service message', async () => {
    server.respond = () => ({ status: 400, body: { message: 'address already added' } });
    const error = await addBitcoinStreamAddress(retrying, { id: BTC_ID, address: ADDRESS }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain('address already added');
    expect((error as BadRequestError).operation).toBe('addBitcoinStreamAddress');
    expect((error as BadRequestError).message).not.toContain(API_KEY);
  });
});

// Type-level checks: results are typed from the schemas (a wrong property would not compile).
export async function typed(c: Client) {
  const created = await createBitcoinStream(c, { webhookUrl: WEBHOOK });
  const id: string = created.id;
  const list = await listBitcoinStreams(c);
  const total: number = list.total;
  const evm = await updateEvmStreamStatus(c, { id: EVM_ID, status: 'active' });
  const chains: string[] = evm.chainIds;
  const input: OperationInput<(typeof operations)[2]> = { webhookUrl: WEBHOOK };
  return { id, total, chains, input };
}
