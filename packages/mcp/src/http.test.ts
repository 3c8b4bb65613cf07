/**
 * Team mode over Streamable HTTP. This machine may listen on loopback only, so "beyond loopback"
 * is held two ways: the rule itself (`bindRefusal`, `isLoopback`) on the addresses a team would
 * use, and the server and the bin refusing to start on 0.0.0.0 without a token (the check comes
 * before any listen). The token itself is checked on whatever address the server listens on, so
 * a server on 127.0.0.1 with a token shows what a team's server does: no token, 401.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@blockwire/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindRefusal,
  isLoopback,
  MIN_TOKEN_LENGTH,
  type RunningHttpServer,
  startHttpServer,
  tokenMatches,
} from './http.js';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const TOKEN = 'team-token-5d1f0a9c7e3b28446a0b9c1d2e3f4a5b';
// No service call is made below: tools/list and protocol errors only.
const client = createClient({ apiKey: 'http-test-key-0123456789', baseUrls: { evm: 'http://127.0.0.1:9/' } });

describe('which addresses need a token', () => {
  it.each(['127.0.0.1', '127.0.0.2', '127.255.255.254', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])(
    '%s is loopback: no token needed',
    (host) => {
      expect(isLoopback(host)).toBe(true);
      expect(bindRefusal(host, undefined)).toBeUndefined();
    },
  );

  it.each([
    '0.0.0.0',
    '::',
    '192.168.1.20',
    '10.0.0.5',
    '128.0.0.1',
    '127.0.0.256',
    'mcp.example.com',
    '::ffff:10.0.0.1',
  ])('%s is beyond loopback: refused without a token, taken with one', (host) => {
    expect(isLoopback(host)).toBe(false);
    expect(bindRefusal(host, undefined)).toMatch(
      /beyond loopback\) needs a bearer token: set BLOCKWIRE_MCP_TOKEN/,
    );
    expect(bindRefusal(host, TOKEN)).toBeUndefined();
  });

  it(`refuses a token shorter than ${MIN_TOKEN_LENGTH} characters anywhere`, () => {
    expect(bindRefusal('127.0.0.1', 'short')).toMatch(/at least 32 characters/);
  });

  it('compares tokens whole, whatever their length', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches('', TOKEN)).toBe(false);
  });

  it('does not start on 0.0.0.0 without a token (library and bin), before listening', async () => {
    await expect(startHttpServer({ client, port: 0, host: '0.0.0.0' })).rejects.toThrow(
      /needs a bearer token/,
    );
    const run = promisify(execFile)(process.execPath, [BIN, '--http', '--port', '0', '--host', '0.0.0.0'], {
      env: { PATH: process.env.PATH ?? '', BLOCKWIRE_API_KEY: 'http-test-key-0123456789' },
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('listening on 0.0.0.0 (beyond loopback) needs a bearer token'),
    });
  });
});

describe('a server with a token', () => {
  let running: RunningHttpServer;
  beforeAll(async () => {
    running = await startHttpServer({ client, port: 0, token: TOKEN });
  });
  afterAll(() => running?.close());

  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const bearer = { authorization: `Bearer ${TOKEN}` };

  it('refuses a request without the token: 401 and a Bearer challenge', async () => {
    const response = await post({}, ping);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="blockwire-mcp"');
    expect(await response.text()).toContain('Unauthorized');
  });

  it('refuses a wrong token with error="invalid_token", and never shows the token', async () => {
    const response = await post({ authorization: `Bearer ${TOKEN.slice(0, -1)}0` }, ping);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await response.text()).not.toContain(TOKEN.slice(0, 16));
  });

  it('keeps the Host and Origin checks with the token', async () => {
    expect((await post({ ...bearer, origin: 'https://evil.example' }, ping)).status).toBe(403);
  });

  it('lets the official SDK client connect with the token', async () => {
    const sdk = new Client({ name: 'team-member', version: '0.0.0' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: bearer } }),
    );
    const { tools } = await sdk.listTools();
    expect(tools.length).toBeGreaterThan(20);
    await sdk.close();
  });

  it('takes one message per POST: a batch is -32600, so one POST makes at most one tools/call', async () => {
    const call = {
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { name: 'getEntityCategories', arguments: {} },
    };
    const response = await post(
      bearer,
      [1, 2, 3].map((id) => ({ ...call, id })),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batch/) },
    });
  });

  it('answers bad arguments with -32602 and a sentence, malformed JSON with -32700', async () => {
    const bad = await post(bearer, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'getEntity', arguments: 'x' },
    });
    expect(await bad.json()).toMatchObject({
      id: 7,
      error: {
        code: -32602,
        message: 'Invalid params of tools/call: params.arguments: expected record, received string.',
      },
    });
    const broken = await post(bearer, '{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
  });
});
