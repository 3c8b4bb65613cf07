/**
 * anvil (a real EVM node, from @foundry-rs/anvil) seeded with blocks of transactions, and a proxy
 * in front of it that serves the node interface's address shape, `POST /<chain>/<key>`, as the
 * service does: every contender calls the proxy. The proxy runs in a child process, so none of its
 * work is in the bench's client CPU (`process.cpuUsage` counts every thread of the process, a
 * worker thread's too) nor queues behind the contender's; it counts the HTTP requests and the
 * JSON-RPC calls it forwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { PING_TOPIC, resolveAnvilBinary } from '@blockwire/emulator';
import { pinServer } from './machine.ts';

/** Runtime code: mstore(0, caller()); log1(0, 32, PING_TOPIC); stop: every call emits one log. */
const PING_RUNTIME = `0x336000527f${PING_TOPIC.slice(2)}60206000a100`;
const PING_ADDRESS = '0x00000000000000000000000000000000000b3e4c';

export interface Anvil {
  url: string;
  stop(): Promise<void>;
}

export async function startAnvil(): Promise<Anvil> {
  const child = spawn(
    resolveAnvilBinary(),
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--no-mining',
      '--timestamp',
      '1735689600',
      '--no-request-size-limit',
      // As many dev accounts as a block has transactions: each sends one, so no two race for a nonce.
      '--accounts',
      '64',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  pinServer(child.pid);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopChild(child);
  };
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`anvil did not start in 20 s:\n${output}`)), 20_000);
      const onOutput = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
        if (found) {
          clearTimeout(timer);
          // anvil logs every call: from now on its output is drained, not kept (or looked at).
          child.stdout?.off('data', onOutput);
          child.stderr?.off('data', onOutput);
          child.stdout?.resume();
          child.stderr?.resume();
          resolve(found);
        }
      };
      child.stdout?.on('data', onOutput);
      child.stderr?.on('data', onOutput);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`anvil exited with code ${code}:\n${output}`));
      });
    });
    return { url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

let nextId = 1;
async function rpc(url: string, calls: { method: string; params?: unknown[] }[]): Promise<unknown[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((call) => ({ jsonrpc: '2.0', id: nextId++, params: [], ...call }))),
  });
  const replies = (await response.json()) as { result?: unknown; error?: { message: string } }[];
  for (const reply of replies) if (reply.error) throw new Error(`anvil: ${reply.error.message}`);
  return replies.map((reply) => reply.result);
}

/**
 * Mines `blocks` blocks of `perBlock` transactions each: half plain value transfers, half calls
 * to a contract that emits a log, each from another dev account. Resolves to the first block number.
 */
export async function seedBlocks(url: string, blocks: number, perBlock: number): Promise<number> {
  const [accounts] = (await rpc(url, [{ method: 'eth_accounts' }])) as [string[]];
  if (perBlock > accounts.length) throw new Error(`at most ${accounts.length} transactions a block`);
  await rpc(url, [{ method: 'anvil_setCode', params: [PING_ADDRESS, PING_RUNTIME] }]);
  await rpc(url, [{ method: 'evm_mine' }]);
  const [first] = (await rpc(url, [{ method: 'eth_blockNumber' }])) as [string];
  for (let block = 0; block < blocks; block++) {
    const sends = Array.from({ length: perBlock }, (_, i) => {
      const from = accounts[(block * perBlock + i) % accounts.length]!;
      const tx =
        i % 2 === 0
          ? {
              from,
              to: `0x${(block * perBlock + i + 1).toString(16).padStart(40, '7')}`,
              value: '0x2386f26fc10000',
            }
          : { from, to: PING_ADDRESS, data: '0x', gas: '0x186a0' };
      return { method: 'eth_sendTransaction', params: [tx] };
    });
    await rpc(url, sends);
    await rpc(url, [{ method: 'evm_mine' }]);
  }
  return Number(first) + 1;
}

export interface NodeProxy {
  /** `POST ${url}` reaches anvil: the node URL with the chain and the key, as the service has it. */
  url: string;
  /** HTTP requests and JSON-RPC calls forwarded since the last `reset`. */
  counts(): Promise<{ requests: number; calls: number }>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The proxy answers a call for a mined block's contents (`MEMO_METHODS` with a block number) from
 * memory once anvil has answered it: the chain is seeded before any client runs and never changes
 * after, so the answer is anvil's own, byte for byte as JSON. A round then lasts as long as its
 * client takes, not as long as anvil takes to read 300 blocks again (0.7–1.0 s a round through
 * anvil, every client alike, for 50–130 ms of client CPU). Any other call, and a request holding
 * one, goes to anvil.
 */
const PROXY_SOURCE = `
const http = require('node:http');
const { anvil, path, undici } = JSON.parse(process.env.BENCH_NODE_PROXY);
const { Pool } = require(undici);
const pool = new Pool(anvil, { connections: 64 });
const MEMO_METHODS = new Set(['eth_getBlockByNumber', 'eth_getBlockReceipts']);
const memo = new Map();
const keyOf = (call) =>
  call && MEMO_METHODS.has(call.method) && Array.isArray(call.params) && /^0x[0-9a-f]+$/.test(call.params[0])
    ? call.method + JSON.stringify(call.params)
    : undefined;
let requests = 0;
let calls = 0;
const reply = (res, status, answer) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
  res.end(answer);
};
const fromMemo = (call) => '{"jsonrpc":"2.0","id":' + JSON.stringify(call.id) + ',"result":' + memo.get(keyOf(call)) + '}';
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  if (req.method !== 'POST' || req.url !== path) { res.writeHead(404); return res.end(); }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks);
    requests++;
    let parsed;
    try { parsed = JSON.parse(body.toString('utf8')); } catch { parsed = undefined; }
    const list = Array.isArray(parsed) ? parsed : [parsed];
    calls += list.length;
    const keys = list.map(keyOf);
    if (keys.every((key) => key !== undefined && memo.has(key))) {
      const answers = list.map(fromMemo);
      return reply(res, 200, Array.isArray(parsed) ? '[' + answers.join(',') + ']' : answers[0]);
    }
    try {
      const upstream = await pool.request({ path: '/', method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const answer = Buffer.from(await upstream.body.arrayBuffer());
      if (upstream.statusCode === 200 && keys.every((key) => key !== undefined)) remember(list, keys, answer);
      reply(res, upstream.statusCode, answer);
    } catch (error) {
      res.writeHead(502); res.end(String(error));
    }
  });
});
function remember(list, keys, answer) {
  let replies;
  try { replies = JSON.parse(answer.toString('utf8')); } catch { return; }
  const byId = new Map((Array.isArray(replies) ? replies : [replies]).map((r) => [JSON.stringify(r && r.id), r]));
  list.forEach((call, i) => {
    const r = byId.get(JSON.stringify(call.id));
    if (r && r.result !== undefined && r.result !== null && r.error === undefined) memo.set(keys[i], JSON.stringify(r.result));
  });
}
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'counts') process.send({ counts: { requests, calls } });
  else if (message === 'reset') { requests = 0; calls = 0; process.send({ reset: true }); }
  else if (message === 'close') { server.closeAllConnections(); server.close(); pool.close().then(() => process.exit(0)); }
});
process.on('disconnect', () => process.exit(0));
`;

export async function startNodeProxy(anvilUrl: string, chain: string, apiKey: string): Promise<NodeProxy> {
  const path = `/${chain}/${encodeURIComponent(apiKey)}`;
  const undici = createRequire(import.meta.url).resolve('undici');
  const child = spawn(process.execPath, ['-e', PROXY_SOURCE], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_NODE_PROXY: JSON.stringify({ anvil: anvilUrl, path, undici }) },
  });
  pinServer(child.pid);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  /** The proxy's next message that has `key`. */
  const answer = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message[key] as T);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`the node proxy exited (${code}) before it answered ${key}`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const port = await answer<number>('port');
  const ask = <T>(request: string, key: string) => {
    const answered = answer<T>(key);
    child.send(request);
    return answered;
  };
  return {
    url: `http://127.0.0.1:${port}${path}`,
    counts: () => ask('counts', 'counts'),
    reset: async () => {
      await ask('reset', 'reset');
    },
    close: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    },
  };
}
