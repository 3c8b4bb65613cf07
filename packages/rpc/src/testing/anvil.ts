// Test helper (not exported): a real anvil node on 127.0.0.1, and a small proxy in front of it that
// serves the node interface's address shape, POST /<chain>/<api key>, as the service does.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { json, startServer } from './server.js';

/** The anvil binary shipped in `@foundry-rs/anvil-<platform>-<arch>`, a dependency of `@foundry-rs/anvil`. */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const launcher = require.resolve('@foundry-rs/anvil/package.json');
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}/package.json`;
  return join(dirname(createRequire(launcher).resolve(platformPackage)), 'bin', 'anvil');
}

export interface Anvil {
  url: string;
  stop(): Promise<void>;
}

/** Starts anvil on a free port (it reports the one it bound) and waits until it answers. */
export async function startAnvil(): Promise<Anvil> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Whatever happens to the test run, the node does not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = () => stopChild(child, killOnExit);
  try {
    const port = await listeningPort(child);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(url);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start in 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(Number(port));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with code ${code}:\n${output}`));
    });
  });
}

async function waitUntilAnswering(url: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopChild(child: ChildProcess, killOnExit: () => void): Promise<void> {
  process.off('exit', killOnExit);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A node URL like the service's: `POST /<chain>/<key>` with the right key is forwarded to anvil;
 * a wrong key is a 401, an unknown chain a 404. `bodies` records what reached it.
 */
export async function startNodeProxy(anvilUrl: string, { chain, apiKey }: { chain: string; apiKey: string }) {
  const bodies: unknown[] = [];
  const proxy = await startServer(async (req, res) => {
    const [, pathChain, key, ...rest] = req.url.split('/');
    if (req.method !== 'POST' || rest.length > 0) return json(res, 404, { message: 'not found' });
    if (decodeURIComponent(key ?? '') !== apiKey) return json(res, 401, { message: 'invalid api key' });
    if (pathChain !== chain) return json(res, 404, { message: `unknown chain ${pathChain}` });
    bodies.push(req.json);
    const upstream = await fetch(anvilUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: req.body,
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(await upstream.text());
  });
  return { url: proxy.url, bodies, close: proxy.close };
}
