/**
 * A client cannot take the stdio server down: the built bin, driven over raw pipes (no SDK client
 * to smooth anything over), gets a 50 MB frame, 10,000 requests it answers into a pipe nobody
 * reads, and malformed frames, and answers the next request each time, with its memory (RSS, read
 * from /proc) under a stated bound. No service is called: these are protocol-level messages.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** The bound every test holds the server's resident memory to (it starts near 100 MB). */
const MAX_RSS_MB = 256;
/**
 * The server's JavaScript heap is capped at this for the tests: garbage is then collected before
 * the heap grows (so RSS measures what the server keeps, not what V8 has yet to collect), and a
 * server that kept what it is sent would not pass slowly, it would die of it.
 */
const HEAP_MB = 128;

interface Answer {
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly answers: Answer[] = [];
  peakRssMb = 0;
  #buffer = '';
  #waiters: (() => void)[] = [];
  #sampler: NodeJS.Timeout;

  constructor() {
    this.child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN], {
      env: { PATH: process.env.PATH ?? '', BLOCKWIRE_API_KEY: 'robustness-key-0123456789' },
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => {
      this.#buffer += text;
      let newline = this.#buffer.indexOf('\n');
      while (newline >= 0) {
        this.answers.push(JSON.parse(this.#buffer.slice(0, newline)) as Answer);
        this.#buffer = this.#buffer.slice(newline + 1);
        newline = this.#buffer.indexOf('\n');
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.#sampler = setInterval(() => this.sampleRss(), 50);
  }

  sampleRss(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      this.peakRssMb = Math.max(this.peakRssMb, rss);
      return rss;
    } catch {
      return 0; // exited: the test sees it through `alive`
    }
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Writes, waiting for the pipe to drain as a well-behaved writer would. */
  async write(text: string): Promise<void> {
    if (!this.child.stdin.write(text))
      await new Promise((resolve) => this.child.stdin.once('drain', resolve));
  }

  send(message: Record<string, unknown>): Promise<void> {
    return this.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  async answerTo(id: string | number | null, timeoutMs = 60_000): Promise<Answer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.answers.find((answer) => answer.id === id);
      if (found) return found;
      if (!this.alive) throw new Error(`the server exited (${this.child.exitCode ?? this.child.signalCode})`);
      if (Date.now() > deadline) throw new Error(`no answer to ${JSON.stringify(id)}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** The server is up and answering: a ping gets its pong. */
  async pings(id: string): Promise<void> {
    await this.send({ id, method: 'ping' });
    expect(await this.answerTo(id)).toMatchObject({ id, result: {} });
  }

  async stop(): Promise<void> {
    clearInterval(this.#sampler);
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

let server: RawServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function started(): Promise<RawServer> {
  server = new RawServer();
  await server.send({
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  expect((await server.answerTo(0)).result).toBeDefined();
  await server.send({ method: 'notifications/initialized' });
  return server;
}

describe('the stdio server', () => {
  it(`answers a 50 MB frame with an error naming the limit, reads none of it into memory, and answers the next (RSS < ${MAX_RSS_MB} MB)`, async () => {
    const raw = await started();
    const head =
      '{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"searchEntities","arguments":{"query":"';
    await raw.write(head);
    const piece = 'a'.repeat(1024 * 1024);
    for (let i = 0; i < 50; i++) await raw.write(piece);
    await raw.write('"}}}\n');
    const refused = await raw.answerTo('huge');
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/larger than 4194304 bytes/);
    await raw.pings('after-huge');
    raw.sampleRss();
    expect(raw.peakRssMb).toBeLessThan(MAX_RSS_MB);
  }, 120_000);

  it(`stops reading while 10,000 requests are answered into a pipe nobody reads, then answers them all (RSS < ${MAX_RSS_MB} MB)`, async () => {
    const raw = await started();
    raw.child.stdout.pause();
    // Every 20th a tools/list (about 50 KB of answer each): 25 MB the client never reads until the end.
    let requests = '';
    for (let id = 1; id <= 10_000; id++) {
      requests += `${JSON.stringify({ jsonrpc: '2.0', id, method: id % 20 === 0 ? 'tools/list' : 'ping' })}\n`;
    }
    void raw.write(requests);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(raw.alive).toBe(true);
    const unreadRss = raw.sampleRss();
    expect(unreadRss).toBeLessThan(MAX_RSS_MB);
    raw.child.stdout.resume();
    await raw.answerTo(10_000, 90_000);
    expect(raw.answers.filter((answer) => typeof answer.id === 'number' && answer.id > 0)).toHaveLength(
      10_000,
    );
    await raw.pings('after-flood');
    expect(raw.peakRssMb).toBeLessThan(MAX_RSS_MB);
  }, 120_000);

  it('answers malformed frames with -32700, -32600 and -32602, each naming the field, and lives on', async () => {
    const raw = await started();
    await raw.write('this is not json\n');
    await raw.write('[{"jsonrpc":"2.0","id":"in-batch","method":"ping"}]\n');
    await raw.send({ jsonrpc: '1.0', id: 'old', method: 'ping' });
    await raw.send({ id: { nested: true }, method: 'ping' });
    await raw.send({ id: 'args', method: 'tools/call', params: { name: 'getEntity', arguments: [1, 2] } });
    await raw.send({ id: 'no-name', method: 'tools/call', params: { arguments: {} } });
    await raw.send({ id: 'unknown', method: 'tools/call', params: { name: 'noSuchTool', arguments: {} } });
    await raw.pings('after-malformed');
    const nulls = raw.answers.filter((answer) => answer.id === null);
    expect(nulls.map((answer) => answer.error?.code)).toEqual([-32700, -32600, -32600]);
    expect(nulls[0]!.error!.message).toMatch(/^Parse error: the message is not JSON/);
    expect(nulls[1]!.error!.message).toMatch(/batch \(JSON array\) is not accepted; MCP 2025-11-25/);
    expect(nulls[2]!.error!.message).toMatch(/id must be a string or an integer/);
    expect(await raw.answerTo('old')).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/jsonrpc must be "2.0"/) },
    });
    expect(await raw.answerTo('args')).toMatchObject({
      error: {
        code: -32602,
        message: 'Invalid params of tools/call: params.arguments: expected record, received array.',
      },
    });
    expect((await raw.answerTo('no-name')).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\.name/),
    });
    expect((await raw.answerTo('unknown')).error).toMatchObject({
      code: -32602,
      message: 'Unknown tool "noSuchTool".',
    });
    // None of it an internal error, none a dump of schema issues.
    for (const answer of raw.answers) expect(answer.error?.code).not.toBe(-32603);
    expect(raw.alive).toBe(true);
  }, 60_000);
});
