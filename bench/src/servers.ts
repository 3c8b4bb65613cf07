/**
 * The local servers every contender calls, on 127.0.0.1. They do as little as they can, so what
 * is measured is the client: answers are prepared once, and nothing is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pinServer } from './machine.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RunningServer & { server: Server }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: Buffer,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length, ...extra });
  res.end(body);
}

/** Reads a request body as text. */
export function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts one of child-servers.ts's servers in a child process; close() ends it. `T` is what the
 * server says of itself on its first line (its `url`, and more for the emulator).
 */
export async function listenInChild<T extends { url: string } = { url: string }>(
  ...args: string[]
): Promise<T & RunningServer> {
  const { spawn } = await import('node:child_process');
  const script = new URL('./child-servers.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  pinServer(child.pid);
  const info = await new Promise<T>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n')[0];
      if (text.includes('\n')) resolve(JSON.parse(line!) as T);
    });
    child.once('exit', (code) =>
      reject(new Error(`the ${args[0]} server exited with ${code} before listening`)),
    );
  });
  return {
    ...info,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
