/**
 * `blockwire-mcp` as a client sees it: the built bin, started over stdio and over Streamable HTTP
 * against the emulator, driven by the MCP SDK's own Client. Every tool comes from an action (and
 * every action has a tool), every schema compiles, every example round-trips, bad input comes back
 * as a tool error naming the field, and a canary key appears in no output.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createClient } from '@blockwire/core';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { actions as entityActions } from '@blockwire/entities/operations';
import { actions as priceActions } from '@blockwire/prices/operations';
import { createRpcClient } from '@blockwire/rpc';
import { actions as rpcActions, walletReads } from '@blockwire/rpc/operations';
import { actions as streamActions } from '@blockwire/streams/operations';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_ACTIONS, walletToolName } from './actions.js';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CANARY = 'canary-key-7f3a91c2e4b5d6';
const outputs: string[] = [];

let emulator: Emulator;
let receiver: { url: string; close(): Promise<void> };

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: CANARY }); // with anvil, for the JSON-RPC tools
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await receiver?.close();
  // The key reached the emulator (every call above succeeded with it) but never came back out.
  expect(outputs.length).toBeGreaterThan(0);
  for (const output of outputs) expect(output).not.toContain(CANARY);
});

function environment(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    BLOCKWIRE_API_KEY: CANARY,
    BLOCKWIRE_EVM_URL: emulator.urls.evm,
    BLOCKWIRE_SOLANA_URL: emulator.urls.solana,
    BLOCKWIRE_STREAMS_URL: emulator.urls.streams,
    BLOCKWIRE_NODE_URL: emulator.urls.node,
  };
}

async function stdioClient(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: environment(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => outputs.push(chunk.toString('utf8')));
  const client = new Client({ name: 'blockwire-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** Starts the bin with `--http --port 0` and reads the URL it prints. */
async function httpServer(args: string[] = []): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, '--http', '--port', '0', ...args], {
    env: environment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(printed);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`blockwire-mcp exited with ${code}: ${printed}`)));
  });
  return {
    url,
    stop: async () => {
      outputs.push(printed);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'blockwire-mcp-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

type CallResult = { isError?: boolean; content: unknown; structuredContent?: unknown };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallResult;
  outputs.push(JSON.stringify(result));
  return result;
}

const WRITING_TOOLS = MCP_ACTIONS.filter((action) => !action.readOnly).map((action) => action.id);

it('counts a POST that reads (long inputs) as a read, and every create, update and delete as a write', () => {
  expect(WRITING_TOOLS).not.toContain('getSolanaTokenPrices');
  expect(WRITING_TOOLS).not.toContain('getBitcoinBlockWebhookData');
  for (const id of ['createBitcoinStream', 'updateSettings', 'replayBitcoinBlock', 'deleteBitcoinStream']) {
    expect(WRITING_TOOLS).toContain(id);
  }
});

/** Stream and xpub ids exist only once made: an example's ids stand for a stream made here through the tools. */
async function withLiveIds(client: Client, id: string, input: Record<string, unknown>) {
  const action = MCP_ACTIONS.find((entry) => entry.id === id)!;
  const bitcoin = action.resource === 'bitcoinStream';
  if (!bitcoin || (!('id' in input) && !('streamId' in input))) return input;
  const stream = (
    (await call(client, 'createBitcoinStream', { webhookUrl: receiver.url })).structuredContent as {
      result: { id: string };
    }
  ).result;
  const added = await call(client, 'addBitcoinStreamAddress', {
    id: stream.id,
    addresses: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
  });
  expect(added.isError).toBeFalsy();
  const xpub = (
    (
      await call(client, 'addBitcoinStreamXpub', {
        id: stream.id,
        xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
      })
    ).structuredContent as { result?: { id?: string } } | undefined
  )?.result;
  const live = { ...input };
  if ('id' in live) live.id = stream.id;
  if ('streamId' in live) live.streamId = stream.id;
  if ('xpubId' in live) live.xpubId = xpub?.id;
  return live;
}

function describeTransport(
  name: string,
  connect: (args?: string[]) => Promise<{ client: Client; stop(): Promise<void> }>,
) {
  describe(`over ${name}`, () => {
    let client: Client;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ client, stop } = await connect());
    }, 30_000);
    afterAll(() => stop?.());

    it('lists one tool per action, and no tool without one, each with schemas that compile', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_ACTIONS.map((action) => action.id).sort());
      const packageActions = [...priceActions, ...entityActions, ...streamActions, ...rpcActions];
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [...packageActions.map((action) => action.operation.id), ...walletReads.map(walletToolName)].sort(),
      );
      const ajv = new Ajv2020({ strict: false });
      for (const tool of tools) {
        const action = MCP_ACTIONS.find((entry) => entry.id === tool.name)!;
        expect(tool.title).toBe(action.displayName);
        expect(tool.description).toContain(action.summary);
        const validate = ajv.compile(tool.inputSchema);
        for (const input of action.exampleInputs) {
          expect(validate(input), `${tool.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        }
        if (tool.outputSchema) ajv.compile(tool.outputSchema);
        expect(tool.annotations?.readOnlyHint).toBe(!WRITING_TOOLS.includes(tool.name));
        expect(tool.annotations?.destructiveHint).toBe(action.method === 'DELETE');
      }
    });

    it('round-trips every example through tools/call', async () => {
      for (const action of MCP_ACTIONS) {
        for (const example of action.exampleInputs) {
          const input = await withLiveIds(client, action.id, example);
          // The SDK's Client checks structuredContent against the tool's outputSchema itself.
          const result = await call(client, action.id, input);
          expect(result.isError, `${action.id}: ${JSON.stringify(result.content)}`).toBeFalsy();
          // The JSON once, in structuredContent; the text only says what it holds.
          const texts = result.content as { text: string }[];
          expect(texts).toHaveLength(1);
          expect(texts[0]!.text.startsWith(action.displayName)).toBe(true);
          expect(result.structuredContent).toHaveProperty('result');
        }
      }
    }, 60_000);

    it('returns bad input as a tool error naming the field and the fix', async () => {
      const result = await call(client, 'getEvmTokenPrice', {
        address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        chain: 'ethereum',
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(
        /chain: .*unknown chain \\"ethereum\\" \(did you mean \\"eth\\"\?\)/,
      );
      // The server lives on: the next call works.
      expect((await call(client, 'getEntityCategories', {})).isError).toBeFalsy();
    });

    it('takes any number of Solana addresses and chunks them', async () => {
      const addresses = Array.from({ length: 250 }, () => 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
      const result = await call(client, 'getSolanaTokenPrices', { addresses });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    });

    it('--read-only leaves out every tool that changes state', async () => {
      const readOnly = await connect(['--read-only']);
      try {
        const { tools } = await readOnly.client.listTools();
        expect(WRITING_TOOLS.length).toBeGreaterThanOrEqual(10);
        expect(tools.map((tool) => tool.name).sort()).toEqual(
          MCP_ACTIONS.map((action) => action.id)
            .filter((id) => !WRITING_TOOLS.includes(id))
            .sort(),
        );
        // An unknown tool is a protocol error (-32602), as the specification has it.
        await expect(call(readOnly.client, 'deleteBitcoinStream', { id: 'x' })).rejects.toThrow(
          /-32602.*Unknown tool "deleteBitcoinStream" \(this server runs with --read-only/,
        );
      } finally {
        await readOnly.stop();
      }
    });
  });
}

describeTransport('stdio', async (args = []) => {
  const client = await stdioClient(args);
  return { client, stop: () => client.close() };
});

describeTransport('Streamable HTTP', async (args = []) => {
  const server = await httpServer(args);
  const client = await httpClient(server.url);
  return {
    client,
    stop: async () => {
      await client.close();
      await server.stop();
    },
  };
});

describe('Streamable HTTP: Host and Origin checks', () => {
  let server: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    server = await httpServer();
  });
  afterAll(() => server?.stop());

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  };
  const post = (headers: Record<string, string>) =>
    fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(initialize),
    });

  it('refuses a foreign Origin', async () => {
    const response = await post({ origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Origin not allowed');
  });

  it('refuses an Origin that only starts like a local one', async () => {
    const port = new URL(server.url).port;
    expect((await post({ origin: `http://127.0.0.1:${port}.evil.example` })).status).toBe(403);
    expect((await post({ origin: 'null' })).status).toBe(403);
  });

  it('refuses a foreign Host (a rebound name), even without an Origin', async () => {
    const { port } = new URL(server.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${port}` } },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it('accepts its own origin', async () => {
    const response = await post({ origin: new URL(server.url).origin });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});

describe('answers within the budget, through the SDK client (which checks each against its outputSchema)', () => {
  let small: Client;
  let client: Client;
  beforeAll(async () => {
    small = await stdioClient(['--max-answer-tokens', '500']);
    client = await stdioClient();
  }, 30_000);
  afterAll(async () => {
    await small?.close();
    await client?.close();
  });

  it('cuts a list that does not fit, says what was cut and how to get the rest, and stays within 500 tokens', async () => {
    for (let i = 0; i < 8; i++) await call(small, 'createBitcoinStream', { webhookUrl: receiver.url });
    const whole = await call(client, 'listBitcoinStreams', {});
    const total = ((whole.structuredContent as { result: { result: unknown[] } }).result.result ?? []).length;
    const result = await call(small, 'listBitcoinStreams', {});
    expect(result.isError).toBeFalsy();
    expect(Buffer.byteLength(JSON.stringify(result)) / 4).toBeLessThanOrEqual(500);
    const { cut } = result.structuredContent as { cut: { path: string; shown: number; total: number }[] };
    expect(cut).toEqual([{ path: 'result.result', shown: expect.any(Number), total }]);
    expect(cut[0]!.shown).toBeLessThan(total);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain(
      `Cut to fit the answer budget of 500 tokens: result.result shows ${cut[0]!.shown} of ${total}.`,
    );
    expect(text).toMatch(/For the rest: ask for smaller pages \(`limit`\) and follow `cursor`/);
  });

  it('leaves long texts out by default, names them, and keeps them with detail "full"', async () => {
    const concise = await call(client, 'getBlockByNumber', { blockTag: 1 });
    const { result, omitted } = concise.structuredContent as {
      result: Record<string, unknown>;
      omitted: string[];
    };
    expect(omitted).toContain('result.logsBloom');
    expect(result).not.toHaveProperty('logsBloom');
    expect((concise.content as { text: string }[])[0]!.text).toMatch(
      /result\.logsBloom.*`detail: "full"` keeps long texts/,
    );
    const full = await call(client, 'getBlockByNumber', { blockTag: 1, detail: 'full' });
    expect((full.structuredContent as { result: Record<string, unknown> }).result.logsBloom).toMatch(
      /^0x[0-9a-f]{512}$/,
    );
    const wrong = await call(client, 'getBlockByNumber', { blockTag: 1, detail: 'everything' });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain('detail: must be \\"concise\\" or \\"full\\"');
  });

  it('refuses a 3.9 MiB search text before sending anything', async () => {
    const requests = async () =>
      JSON.stringify(await (await fetch(`${emulator.control}/requests`)).json()).match(/entities\/search/g)
        ?.length ?? 0;
    const before = await requests();
    const result = await call(client, 'searchEntities', { query: 'a'.repeat(3.9 * 1024 * 1024) });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(
      'query: 4089446 characters is more than the 2048 this tool takes (it is sent in the URL).',
    );
    expect(await requests()).toBe(before);
    // The count does see searches: an ordinary one adds one.
    expect((await call(client, 'searchEntities', { query: 'binance' })).isError).toBeFalsy();
    expect(await requests()).toBe(before + 1);
  });
});

describe('the wallet reads as tools, through the SDK client (which checks each answer against its outputSchema)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient(['--read-only']);
  }, 30_000);
  afterAll(() => client?.close());

  it('offers every wallet read, read-only, even with --read-only', async () => {
    const { tools } = await client.listTools();
    for (const read of walletReads) {
      const tool = tools.find((candidate) => candidate.name === walletToolName(read));
      expect(tool, read.id).toBeDefined();
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool?.description).toContain(read.description.replace(/\.$/, ''));
    }
  });

  it('answers a dev account’s balance in ETH with the wei under raw, as the emulator’s anvil holds it', async () => {
    const [account] = emulator.chain!.accounts;
    const sdk = createClient({ apiKey: CANARY, baseUrls: emulator.urls, retry: false });
    const wei = BigInt(await createRpcClient(sdk, { chain: 'eth' }).getBalance(account!));
    await sdk.close();
    const result = await call(client, walletToolName({ id: 'getBalance' }), { address: account });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const { result: answer } = result.structuredContent as { result: Record<string, unknown> };
    const whole = wei / 10n ** 18n;
    expect(String(answer.balance).startsWith(`${whole}`)).toBe(true);
    expect(answer.raw).toMatchObject({ wei: wei.toString() });
  });

  it('answers the fixture ERC-20 balance of a dev account in token units, every digit kept, the raw amount under raw', async () => {
    const token = emulator.chain!.contracts.tokens.BlockwireToken;
    const [owner] = emulator.chain!.accounts;
    const result = await call(client, walletToolName({ id: 'getTokenBalance' }), {
      token: token.address,
      owner,
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect((result.structuredContent as { result: unknown }).result).toMatchObject({
      symbol: 'BWT',
      balance: '1234.567890123456789012',
      raw: { amount: '1234567890123456789012', decimals: 18 },
    });
  });

  it('reads a contract from an ABI fragment, and a revert is a tool error with the decoded reason', async () => {
    const token = emulator.chain!.contracts.tokens.BlockwireToken;
    const [holder, amount] = Object.entries(token.balances)[0]!;
    const read = await call(client, walletToolName({ id: 'readContract' }), {
      address: token.address,
      abi: 'function balanceOf(address owner) view returns (uint256)',
      args: [holder],
    });
    expect(read.isError, JSON.stringify(read.content)).toBeFalsy();
    expect((read.structuredContent as { result: unknown }).result).toMatchObject({ result: amount.toString() });
    const reverted = await call(client, walletToolName({ id: 'readContract' }), {
      address: emulator.chain!.contracts.reverter,
      abi: 'function alwaysReverts() view returns (uint256)',
    });
    expect(reverted.isError).toBe(true);
    expect(JSON.stringify(reverted.content)).toContain('alwaysReverts on');
    expect(JSON.stringify(reverted.content)).toContain('Reverter: always reverts');
    expect(JSON.stringify(reverted.content)).not.toContain(CANARY);
  });

  it('answers logs decoded with an event fragment, the log under raw', async () => {
    const result = await call(client, walletToolName({ id: 'getLogs' }), {
      fromBlock: '0x0',
      toBlock: 'latest',
      address: emulator.chain!.contract,
      event: 'event Ping(address caller)',
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const logs = (result.structuredContent as { result: Record<string, unknown>[] }).result;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]).toMatchObject({ eventName: 'Ping', decoded: true, args: { caller: expect.any(String) } });
  });

  it('a wrong checksum is a tool error naming the field', async () => {
    const [account] = emulator.chain!.accounts;
    const flipped = account!.replace(/[a-f]/, (letter) => letter.toUpperCase());
    const result = await call(client, walletToolName({ id: 'getBalance' }), { address: flipped });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/address.*checksum/i);
  });
});
