/**
 * The key reaches no model: every tool, driven through the built bin over stdio with the SDK's
 * Client, against a service that echoes the key back in every form a service might (as given,
 * upper- and lower-cased, percent-encoded, base64 and base64url at each byte offset, hex in either
 * case), both in successful answers (in every object and in its names) and in error answers (REST
 * error bodies, JSON-RPC error messages and data). The check below is independent of the
 * redactor: it looks for every 16-character window of each echoed form.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_ACTIONS } from './actions.js';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const KEY = 'Echo+Canary.7f3a91c2e4b5d6a8';
const TAIL = '!tail';

const hex = (text: string) => Buffer.from(text).toString('hex');
/** Each form as the service echoes it, with the part of it that comes from the key alone. */
const FORMS: { name: string; echo: string; keyPart: string }[] = [
  { name: 'as given', echo: KEY, keyPart: KEY },
  { name: 'upper-cased', echo: KEY.toUpperCase(), keyPart: KEY.toUpperCase() },
  { name: 'lower-cased', echo: KEY.toLowerCase(), keyPart: KEY.toLowerCase() },
  { name: 'percent-encoded', echo: encodeURIComponent(KEY), keyPart: encodeURIComponent(KEY) },
  {
    name: 'percent-encoded, every byte',
    echo: hex(KEY).replace(/(..)/g, '%$1'),
    keyPart: hex(KEY).replace(/(..)/g, '%$1'),
  },
  { name: 'hex', echo: hex(KEY), keyPart: hex(KEY) },
  { name: 'upper-case hex', echo: hex(KEY).toUpperCase(), keyPart: hex(KEY).toUpperCase() },
  ...[0, 1, 2].flatMap((offset) =>
    (['base64', 'base64url'] as const).map((encoding) => {
      const echo = Buffer.from(`${'x'.repeat(offset)}${KEY}${TAIL}`).toString(encoding);
      // The first 4 and last 8 characters also carry the bytes around the key.
      return { name: `${encoding}, ${offset} bytes before`, echo, keyPart: echo.slice(4, -8) };
    }),
  ),
];
const ALL_FORMS = FORMS.map((form) => form.echo).join(' ');

/** Which forms of the key a text still holds: any 16 characters in a row of one, any case. */
function leaked(text: string): string[] {
  const lower = text.toLowerCase();
  return FORMS.filter(({ keyPart }) => {
    const part = keyPart.toLowerCase();
    for (let i = 0; i + 16 <= part.length; i++) if (lower.includes(part.slice(i, i + 16))) return true;
    return false;
  }).map((form) => form.name);
}

type Mode = 'pass' | 'echo' | 'fail';

/** Strings a schema is liberal about (names, symbols, labels), where an echo passes validation. */
const FREE_TEXT = /^(?=.*[A-Z ])[A-Za-z][\w .'()&-]*$/;

function echoed(value: unknown, depth = 0): unknown {
  if (depth > 40) return value;
  if (typeof value === 'string') return FREE_TEXT.test(value) ? `${value} ${ALL_FORMS}` : value;
  if (Array.isArray(value)) return value.map((item) => echoed(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, echoed(item, depth + 1)]),
  );
  copy.echo = ALL_FORMS;
  copy[KEY] = KEY.toUpperCase();
  return copy;
}

/** In front of the emulator: passes answers through, adds the key to them, or fails with it. */
function startEchoProxy(emulator: Emulator): Promise<{ server: Server; origin: string; mode: Mode }> {
  const state = { mode: 'pass' as Mode };
  const target = new URL(emulator.urls.evm).origin;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name]) => !['host', 'content-length', 'connection'].includes(name),
        ),
      ) as Record<string, string>;
      const jsonRpc = body.length > 0 && body.toString('utf8').includes('"jsonrpc"');
      if (state.mode === 'fail') {
        if (jsonRpc) {
          const sent = JSON.parse(body.toString('utf8')) as { id: unknown } | { id: unknown }[];
          const fail = (id: unknown) => ({
            jsonrpc: '2.0',
            id,
            error: {
              code: -32000,
              message: `invalid key ${ALL_FORMS}`,
              data: { key: ALL_FORMS, [KEY]: KEY },
            },
          });
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(Array.isArray(sent) ? sent.map((one) => fail(one.id)) : fail(sent.id)));
        } else {
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ message: `invalid key ${ALL_FORMS}`, key: ALL_FORMS, [KEY]: 1 }));
        }
        return;
      }
      const upstream = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers,
        body: body.length > 0 ? body : undefined,
      });
      let text = await upstream.text();
      if (state.mode === 'echo' && upstream.ok && /^[[{]/.test(text))
        text = JSON.stringify(echoed(JSON.parse(text)));
      response.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      response.end(text);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(
        Object.defineProperty(
          { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
          'mode',
          {
            get: () => state.mode,
            set: (mode: Mode) => {
              state.mode = mode;
            },
          },
        ) as { server: Server; origin: string; mode: Mode },
      ),
    ),
  );
}

let emulator: Emulator;
let proxy: Awaited<ReturnType<typeof startEchoProxy>>;
let receiver: Server;
let webhookUrl: string;
let client: Client;
const logs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: KEY });
  proxy = await startEchoProxy(emulator);
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const via = (url: string) => url.replace(new URL(url).origin, proxy.origin);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: {
      PATH: process.env.PATH ?? '',
      BLOCKWIRE_API_KEY: KEY,
      BLOCKWIRE_EVM_URL: via(emulator.urls.evm),
      BLOCKWIRE_SOLANA_URL: via(emulator.urls.solana),
      BLOCKWIRE_STREAMS_URL: via(emulator.urls.streams),
      BLOCKWIRE_NODE_URL: via(emulator.urls.node),
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  client = new Client({ name: 'redaction-test', version: '0.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  await new Promise((resolve) => proxy?.server.close(resolve));
  await new Promise((resolve) => receiver?.close(resolve));
});

type Result = { isError?: boolean; content: unknown; structuredContent?: unknown };

async function callAs(mode: Mode, name: string, args: Record<string, unknown>): Promise<Result> {
  proxy.mode = mode;
  try {
    return (await client.callTool({ name, arguments: args })) as Result;
  } finally {
    proxy.mode = 'pass';
  }
}

/** An example's stream ids stand for a stream made here, so the call reaches the service. */
async function liveInput(id: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const action = MCP_ACTIONS.find((entry) => entry.id === id)!;
  if (action.resource !== 'bitcoinStream' || (!('id' in input) && !('streamId' in input))) return input;
  const stream = (
    (await callAs('pass', 'createBitcoinStream', { webhookUrl })).structuredContent as {
      result: { id: string };
    }
  ).result;
  const xpub = (
    (
      await callAs('pass', 'addBitcoinStreamXpub', {
        id: stream.id,
        xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
      })
    ).structuredContent as { result?: { id?: string } }
  ).result;
  return {
    ...input,
    ...('id' in input ? { id: stream.id } : {}),
    ...('streamId' in input ? { streamId: stream.id } : {}),
    ...('xpubId' in input ? { xpubId: xpub?.id } : {}),
  };
}

describe('a service that echoes the key', () => {
  it('checks for every form it echoes, and finds them in what the service sent', () => {
    expect(FORMS).toHaveLength(13);
    expect(leaked(ALL_FORMS)).toEqual(FORMS.map((form) => form.name));
  });

  it('reaches no result, error or log line of any tool, in any form', async () => {
    const masked = new Set<string>();
    const failed = new Set<string>();
    for (const action of MCP_ACTIONS) {
      const input = await liveInput(action.id, action.exampleInputs[0]!);
      for (const mode of ['echo', 'fail'] as const) {
        const result = await callAs(mode, action.id, input);
        const out = JSON.stringify(result);
        expect(leaked(out), `${action.id} (${mode}): ${out.slice(0, 400)}`).toEqual([]);
        if (mode === 'fail') {
          // A tool error, or (a list sent one by one) each failure in its entry: masked either way.
          if (out.includes('***')) failed.add(action.id);
        } else if (!result.isError && JSON.stringify(result.structuredContent).includes('***')) {
          masked.add(action.id);
        }
      }
    }
    // The echoes were there to mask: in the error of every tool, and in most successful answers
    // (the rest have no object or free text the service's schema would let an echo through).
    expect([...failed].sort()).toEqual(MCP_ACTIONS.map((action) => action.id).sort());
    expect(masked.size, [...masked].join(', ')).toBeGreaterThanOrEqual(15);
    expect(leaked(logs.join(''))).toEqual([]);
  }, 120_000);
});
