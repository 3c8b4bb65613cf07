/** Helpers for this package's integration tests (not part of the published build). */
import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { type Client, createClient } from '@blockwire/core';
import { addBitcoinStreamAddress, addBitcoinStreamXpub, createBitcoinStream } from '@blockwire/streams';
import { afterAll, beforeAll } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from './server.js';

/** Starts an emulator (without anvil unless asked) and a function to stop it. */
export async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ anvil: false, ...options });
}

export function clientFor(emu: Emulator, options: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({
    apiKey: emu.apiKey,
    baseUrls: emu.urls,
    retry: false,
    ...options,
  });
}

/**
 * An emulator and a client for it, shared by every test of a file: started before the first test,
 * closed after the last. Read `emu` and `client` inside tests (they exist once `beforeAll` ran).
 */
export function useEmulator(options: EmulatorOptions = {}) {
  let emu: Emulator | undefined;
  let client: ReturnType<typeof clientFor> | undefined;
  beforeAll(async () => {
    emu = await emulator(options);
    client = clientFor(emu);
  });
  afterAll(async () => {
    await client?.close();
    await emu?.close();
  });
  return {
    get emu(): Emulator {
      if (!emu) throw new Error('useEmulator: the emulator starts in beforeAll; read it inside a test');
      return emu;
    },
    get client(): ReturnType<typeof clientFor> {
      if (!client) throw new Error('useEmulator: the client is made in beforeAll; read it inside a test');
      return client;
    },
  };
}

export interface Receiver {
  url: string;
  requests: { headers: IncomingMessage['headers']; body: string }[];
  status: number;
  close(): Promise<void>;
}

/** A webhook receiver on loopback that records every POST and answers `status` (200 by default). */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', requests: [], status: 200, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

const WATCHED_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const WATCHED_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

/**
 * An example input of a Bitcoin stream call, made runnable. The ids of streams and xpubs cannot be
 * known before the emulator makes them: an example's stream id (and xpub id) stand for a stream
 * made here, with one watched address and one xpub, and its webhook URL for `receiverUrl`.
 */
export async function withLiveIds(
  client: Client,
  receiverUrl: string,
  endpoint: { resource: string },
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (endpoint.resource !== 'bitcoinStream') return input;
  const live = { ...input };
  if ('webhookUrl' in live) live.webhookUrl = receiverUrl;
  if (!('id' in live) && !('streamId' in live)) return live;
  const { stream, xpub } = await liveStream(client, receiverUrl);
  if ('id' in live) live.id = stream.id;
  if ('streamId' in live) live.streamId = stream.id;
  if ('xpubId' in live) live.xpubId = xpub?.id;
  return live;
}

/** A Bitcoin stream made in the emulator, posting to `receiverUrl`, with one watched address and one xpub. */
export async function liveStream(client: Client, receiverUrl: string) {
  const stream = await createBitcoinStream(client, { webhookUrl: receiverUrl });
  await addBitcoinStreamAddress(client, { id: stream.id, address: WATCHED_ADDRESS });
  const xpub = await addBitcoinStreamXpub(client, { id: stream.id, xpub: WATCHED_ZPUB });
  return { stream, xpub };
}

/** A raw request to the emulator: the status and the parsed JSON body. */
export async function call(
  url: string,
  init: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies freely
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null && init.key !== undefined) headers['x-api-key'] = init.key;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body, headers: response.headers };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies freely
  body: any;
}

/**
 * Sends `head` (request line and headers, without the blank line) and `body` byte for byte over
 * a socket: no client normalises the path (fetch would resolve `..` before sending) or checks the
 * request line. Resolves with the parsed answer once the server closes the connection.
 */
export function rawHttp(origin: string, head: string, body: Buffer | string = ''): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const request = Buffer.concat([
    Buffer.from(
      `${head}\r\nHost: ${hostname}\r\nConnection: close\r\nContent-Length: ${payload.length}\r\n\r\n`,
      'latin1',
    ),
    payload,
  ]);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [headText = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = headText.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = rest.join('\r\n\r\n');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: keep the text.
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text, body: parsed });
    });
  });
}
