/**
 * The processes a scenario runs beside itself — the emulator's CLI, the webhook receiver, the load
 * generator, the demo — each on 127.0.0.1, started from the built packages and stopped whatever
 * happens: every child is tracked, and one still alive when this process exits is killed.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BASE_URL_VARIABLES } from '@blockwire/core';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** A running child process that printed one JSON line when it was ready. */
export interface Child<Ready = Record<string, unknown>> {
  pid: number;
  ready: Ready;
  /** Everything the child wrote to stdout after its ready line, and to stderr. */
  output(): string;
  /** Resolves with the exit code (or signal) once the child is gone. */
  exited: Promise<number | NodeJS.Signals>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<number | NodeJS.Signals>;
  /** SIGKILL now: a crash, as far as the child can tell. */
  kill(): Promise<number | NodeJS.Signals>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Path of a bin of a workspace package, from its package.json (the built entry). */
export function binOf(packageName: string, bin: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const entry = manifest.bin[bin];
  if (!entry) throw new Error(`${packageName} has no bin ${bin}`);
  return join(dirname(manifestPath), entry);
}

/** A script of this suite, run by Node itself (its types stripped). */
export const scriptPath = (name: string) => join(here, name);

/**
 * Starts `node <args>` and waits for its first stdout line, which must be JSON (the ready line).
 * Fails, killing the child, when it exits first or does not get ready within `readyTimeoutMs`.
 */
export function startChild<Ready = Record<string, unknown>>(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    readyTimeoutMs?: number;
    nodeArgs?: string[];
    /** Reads the ready line; the default takes the first line that is JSON. */
    readyLine?: (line: string) => Ready | undefined;
  } = {},
): Promise<Child<Ready>> {
  const readyLine =
    options.readyLine ??
    ((line: string) => {
      try {
        return JSON.parse(line) as Ready;
      } catch {
        return undefined;
      }
    });
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  running.add(child);
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(signal ?? code ?? 0);
    });
  });
  const stop = async (graceMs = 5_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    return exited;
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let ready: Ready | undefined;
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`${args.join(' ')} was not ready in time\n${output}`));
    }, options.readyTimeoutMs ?? 20_000);
    lines.on('line', (line) => {
      if (ready !== undefined) {
        output += `${line}\n`;
        return;
      }
      ready = readyLine(line);
      if (ready === undefined) {
        output += `${line}\n`;
        return;
      }
      clearTimeout(timer);
      resolve({ pid: child.pid!, ready, output: () => output, exited, stop, kill });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (ready === undefined)
        reject(new Error(`${args.join(' ')} exited (${code}) before it was ready\n${output}`));
    });
  });
}

export interface EmulatorUrls {
  evm: string;
  solana: string;
  streams: string;
  node: string;
}

export interface EmulatorProcess extends Child<{ apiKey: string; urls: EmulatorUrls; control: string }> {
  apiKey: string;
  urls: EmulatorUrls;
  control: string;
  /** A control API call (JSON in and out); throws on a non-2xx answer. */
  controlCall<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

/** The environment that points the demo (or any Blockwire program) at this emulator's URLs. */
export function baseUrlVariables(emulator: { urls: EmulatorUrls }): Record<string, string> {
  return Object.fromEntries(
    (Object.keys(BASE_URL_VARIABLES) as (keyof EmulatorUrls)[]).map((api) => [
      BASE_URL_VARIABLES[api].name,
      emulator.urls[api],
    ]),
  );
}

/** The emulator's own command line (`blockwire-emulator`), on a free loopback port. */
export async function startEmulatorProcess(
  options: { anvil?: boolean; apiKey?: string; seed?: number } = {},
): Promise<EmulatorProcess> {
  const args = [binOf('@blockwire/emulator', 'blockwire-emulator'), '--port', '0'];
  if (options.anvil !== true) args.push('--no-anvil');
  if (options.apiKey !== undefined) args.push('--api-key', options.apiKey);
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  const child = await startChild<{ apiKey: string; urls: EmulatorUrls; control: string }>(args);
  const { apiKey, urls, control } = child.ready;
  return {
    ...child,
    apiKey,
    urls,
    control,
    async controlCall<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${control}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    },
  };
}

/** Resident memory of a process, in MiB (Linux: /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}
