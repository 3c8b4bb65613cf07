/**
 * Runs every example of the README's "Managing streams" section against a local server, so the
 * examples stay true: each one must run to the end and send only requests the operations accept.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputFromRequest, matchPath, type Operation } from '@blockwire/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operations } from './index.js';
import { API_KEY, type RecordedRequest, type Reply, startServer, type TestServer } from './test-support.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const MANAGEMENT = fileURLToPath(new URL('./index.ts', import.meta.url));
const CORE = createRequire(import.meta.url).resolve('@blockwire/core');
const CLIENT_LINE = 'createClient({ apiKey: process.env.BLOCKWIRE_API_KEY! })';

const ID = '0b2b4a57-7f3c-41ee-b962-0242ac120002';
const bitcoinStream = {
  id: ID,
  status: 'active',
  description: 'Treasury wallets',
  webhookUrl: 'https://example.com/webhooks/bitcoin',
  amountOfAddresses: 3,
  network: ['mainnet'],
};
const replies: Record<string, unknown> = {
  updateEvmStreamStatus: {
    webhookUrl: 'https://example.com/webhooks/evm',
    description: 'USDC',
    chainIds: ['0x1'],
    id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    status: 'paused',
    statusMessage: 'paused by user',
    updatedAt: '2026-11-20T10:00:00.000Z',
    amountOfAddresses: 1,
  },
  updateSettings: { region: 'eu-central-1' },
  createBitcoinStream: bitcoinStream,
  updateBitcoinStream: bitcoinStream,
  getBitcoinStream: bitcoinStream,
  listBitcoinStreams: { total: 1, result: [bitcoinStream] },
  getBitcoinBlockWebhookData: {
    chainId: 'mainnet',
    block: { height: '840000', hash: '00' },
    transactions: [],
  },
  listBitcoinStreamAddresses: { total: 1, result: [{ address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' }] },
  listBitcoinStreamXpubs: { total: 1, result: [{ id: 'xp-1', xpub: 'zpub…' }] },
};

function examplesOf(readme: string): { title: string; code: string }[] {
  const section = readme.slice(readme.indexOf('## Managing streams'));
  const end = section.indexOf('\n## ', 1);
  const text = end === -1 ? section : section.slice(0, end);
  const examples: { title: string; code: string }[] = [];
  let title = '';
  for (const match of text.matchAll(/^### (.+)$|^```ts\n([\s\S]*?)^```$/gm)) {
    if (match[1]) title = match[1];
    else
      examples.push({
        title: `${title} #${examples.filter((e) => e.title.startsWith(title)).length + 1}`,
        code: match[2]!,
      });
  }
  return examples;
}

let server: TestServer;
let dir: string;
const examples = examplesOf(await readFile(README, 'utf8'));

beforeAll(async () => {
  server = await startServer((request) => reply(request));
  dir = await mkdtemp(join(tmpdir(), 'blockwire-streams-readme-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function operationFor(request: RecordedRequest): Operation | undefined {
  return operations.find((op) => op.method === request.method && matchPath(op, request.path) !== undefined);
}

function reply(request: RecordedRequest): Reply {
  const operation = operationFor(request);
  return {
    body: operation ? (replies[operation.id] ?? {}) : { message: 'no such route' },
    status: operation ? 200 : 404,
  };
}

describe('README examples (Managing streams)', () => {
  it('has an example for every management function', () => {
    const titles = examples.map((example) => example.title).join('\n');
    for (const operation of operations) expect(titles).toContain(`\`${operation.id}(`);
    expect(titles).toContain('`addBitcoinStreamAddresses(');
  });

  it.each(examples)('$title runs to the end', async ({ title, code }) => {
    const source = code
      .replaceAll(
        CLIENT_LINE,
        `createClient({ apiKey: ${JSON.stringify(API_KEY)}, baseUrls: { streams: ${JSON.stringify(server.url)} } })`,
      )
      .replaceAll("'@blockwire/streams'", JSON.stringify(MANAGEMENT))
      .replaceAll("'@blockwire/core'", JSON.stringify(CORE));
    const file = join(dir, `example-${Math.random().toString(36).slice(2)}.ts`);
    await writeFile(file, source);
    const before = server.requests.length;
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await import(/* @vite-ignore */ file);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    const sent = server.requests.slice(before);
    // Only the validator example and the error example (a refused input) send nothing.
    if (!/Checking addresses|Errors and retries/.test(title)) expect(sent.length).toBeGreaterThan(0);
    else expect(sent).toHaveLength(0);
    for (const request of sent) {
      const operation = operationFor(request);
      expect(operation, `${request.method} ${request.path}`).toBeDefined();
      expect(request.headers['x-api-key']).toBe(API_KEY);
      const query = Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, v[0]]));
      const input = inputFromRequest(operation!, {
        params: matchPath(operation!, request.path)!,
        query,
        body: request.json,
      });
      expect(operation!.input.safeParse(input).error?.issues).toBeUndefined();
    }
  });
});
