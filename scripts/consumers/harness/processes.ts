/** Servers the consumer tests start: spawned in a process group of their own, stopped with it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunningServer {
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/**
 * Starts `command` and resolves once `url` answers HTTP (any status), or rejects with its output
 * when it exits first or is not up within `readyTimeoutMs`.
 */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; url: string; readyTimeoutMs?: number },
): Promise<RunningServer> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const closed = once(child, 'close');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopGroup(child, 'SIGTERM');
    const timer = setTimeout(() => stopGroup(child, 'SIGKILL'), 5_000);
    await closed;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode}) before it served:\n${output}`);
    }
    try {
      const response = await fetch(options.url, { method: 'HEAD', signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} did not serve ${options.url} in time:\n${output}`);
    }
    await sleep(200);
  }
  return { url: options.url, output: () => output, stop };
}

/** Runs a program to its end (with a limit), for its output. */
export async function runProgram(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const limit = options.timeoutMs ?? 60_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup(child, 'SIGKILL');
  }, limit);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  if (timedOut) stderr += `\n(stopped after ${limit / 1000} s)`;
  return { code, stdout, stderr };
}
