/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
   Test harness: runs n8n for the e2e tests; none of it ships (package.json#files is dist). */
/**
 * A real n8n for the end-to-end tests: a temporary user folder, this package's build loaded as a
 * custom extension, the server on 127.0.0.1, and the command line (import, execute) beside it.
 *
 * Facts this relies on (measured with n8n 2.41.1, see RECIPES.md):
 * - custom nodes load from N8N_CUSTOM_EXTENSIONS; their type in workflow JSON is `CUSTOM.<name>`;
 * - the task runner broker needs a port of its own (N8N_RUNNERS_BROKER_PORT), also for a CLI
 *   command run beside the server;
 * - `n8n execute --id=<id> --rawOutput` prints log lines first and the JSON after them;
 * - the server is ready when GET /healthz/readiness answers 200; a just-activated webhook may
 *   404 for a moment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { N8nInstall } from './install-n8n.ts';

export interface N8nEnvironment {
  /** Temporary folder: n8n's user folder (database, config, encryption key) and the extension. */
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly port: number;
  readonly url: string;
}

/** Not a secret: encrypts the credentials of a throwaway test database. */
const TEST_ENCRYPTION_KEY = ['blockwire', 'e2e', 'only'].join('-');

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A fresh user folder with the built package copied in as it would be installed (its dist and
 * package.json only: zod and n8n-workflow must come from n8n, as for a real install), and any
 * `morePackageDirs` beside it (n8n-nodes-blockwire-postgres).
 */
export async function prepareN8n(options: {
  packageDir: string;
  morePackageDirs?: readonly string[];
  webhookUrl?: string;
}): Promise<N8nEnvironment> {
  const root = mkdtempSync(join(tmpdir(), 'blockwire-n8n-e2e-'));
  for (const packageDir of [options.packageDir, ...(options.morePackageDirs ?? [])]) {
    const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { name: string };
    const extension = join(root, 'custom', name);
    mkdirSync(extension, { recursive: true });
    cpSync(join(packageDir, 'dist'), join(extension, 'dist'), { recursive: true });
    cpSync(join(packageDir, 'package.json'), join(extension, 'package.json'));
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    TZ: 'UTC',
    N8N_USER_FOLDER: join(root, 'user'),
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    N8N_WEBHOOK_URL: options.webhookUrl ?? `${url}/`,
    N8N_CUSTOM_EXTENSIONS: join(root, 'custom'),
    // Any fixed value: the server and the command line share the user folder and must agree.
    N8N_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_SECURE_COOKIE: 'false',
    N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
    N8N_LOG_LEVEL: 'info',
    N8N_LOG_OUTPUT: 'console',
    DB_SQLITE_POOL_SIZE: '2',
  };
  return { root, env, port, url };
}

export interface CliResult {
  code: number | null;
  /** The signal that ended the command, when one did. */
  signal: NodeJS.Signals | null;
  /** Whether the timeout ended it. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Runs one n8n command line command to its end (import, execute...). */
export async function runN8nCli(
  install: N8nInstall,
  environment: N8nEnvironment,
  args: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  // A command beside the running server needs its own task runner broker port.
  const env = { ...environment.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...options.env };
  const child = spawn(install.node, [install.bin, ...args], { env, cwd: environment.root, detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timeoutMs = options.timeoutMs ?? 120_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child, 'SIGKILL');
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(timer);
  return { code, signal, timedOut, stdout, stderr };
}

/**
 * The JSON `n8n execute --rawOutput` prints: `JSON.stringify(run, null, 2)`, so a line `{` to a
 * line `}`. Log lines come before it, and n8n may still log while it shuts down after it.
 */
export function executeOutput(stdout: string): unknown {
  const lines = stdout.split('\n');
  const opens = lines.flatMap((line, index) => (line === '{' ? [index] : []));
  const closes = lines.flatMap((line, index) => (line === '}' ? [index] : [])).reverse();
  for (const open of opens) {
    for (const close of closes) {
      if (close <= open) break;
      try {
        return JSON.parse(lines.slice(open, close + 1).join('\n'));
      } catch {
        // Not this pair: a log line in between, or another brace line.
      }
    }
  }
  throw new Error(`no JSON in the output of n8n execute:\n${stdout.slice(-3000)}`);
}

export interface N8nServer {
  readonly url: string;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** One n8n process we started (`n8n start`, `n8n webhook`, `n8n worker`), in a process group of its own. */
export interface N8nProcess extends N8nServer {
  readonly command: string;
  readonly pid: number | undefined;
  /** Signals its process group at once (a crash, as far as n8n can tell). */
  kill(): void;
}

/**
 * Starts `n8n <args>` with `env` and resolves when `readyUrl` answers 200; rejects (and stops it)
 * if it exits first or is not ready within `timeoutMs`. `url` is what the process serves.
 */
export async function startN8nProcess(
  install: N8nInstall,
  options: { env: NodeJS.ProcessEnv; cwd: string; args: string[]; url: string; readyUrl: string },
  timeoutMs = 120_000,
): Promise<N8nProcess> {
  const child = spawn(install.node, [install.bin, ...options.args], {
    env: options.env,
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-400_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // Detached (its own process group), so it would outlive a parent that dies: it goes with it.
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const started: N8nProcess = {
    command: options.args.join(' '),
    pid: child.pid,
    url: options.url,
    output: () => output,
    kill: () => killGroup(child, 'SIGKILL'),
    async stop() {
      if (!running()) return;
      killGroup(child, 'SIGTERM');
      const killer = setTimeout(() => killGroup(child, 'SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
      // Its task runners share the group; whatever outlived n8n goes too.
      killGroup(child, 'SIGKILL');
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running())
      throw new Error(
        `n8n ${started.command} exited with ${child.exitCode ?? child.signalCode} before it was ready:\n${output.slice(-4000)}`,
      );
    try {
      const response = await fetch(options.readyUrl);
      if (response.ok) return started;
    } catch {
      // Not listening yet.
    }
    await sleep(500);
  }
  await started.stop();
  throw new Error(`n8n ${started.command} was not ready within ${timeoutMs} ms:\n${output.slice(-4000)}`);
}

/** Starts `n8n start` and resolves when it is ready; rejects (and stops it) if it is not within `timeoutMs`. */
export async function startN8nServer(
  install: N8nInstall,
  environment: N8nEnvironment,
  timeoutMs = 120_000,
): Promise<N8nProcess> {
  return await startN8nProcess(
    install,
    {
      env: environment.env,
      cwd: environment.root,
      args: ['start'],
      url: environment.url,
      readyUrl: `${environment.url}/healthz/readiness`,
    },
    timeoutMs,
  );
}

/** n8n's own REST API (as the editor uses it) and its public API, as the owner. */
export class N8nApi {
  private readonly url: string;
  private cookie = '';
  private apiKey = '';

  constructor(url: string) {
    this.url = url;
  }

  /** Creates the owner account, then a public API key with every scope the owner may have. */
  async setUp(): Promise<void> {
    const setup = await fetch(`${this.url}/rest/owner/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'owner@example.com',
        firstName: 'Test',
        lastName: 'Owner',
        password: 'Blockwire-e2e-1',
      }),
    });
    if (!setup.ok) throw new Error(`owner setup: HTTP ${setup.status} ${await setup.text()}`);
    this.cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const scopes = (await this.rest('GET', '/rest/api-keys/scopes')) as string[];
    const created = (await this.rest('POST', '/rest/api-keys', {
      label: 'e2e',
      scopes,
      expiresAt: null,
    })) as {
      rawApiKey: string;
    };
    this.apiKey = created.rawApiKey;
  }

  /** The owner's session cookie (`name=value`), for a browser to open the editor as the owner. */
  sessionCookie(): string {
    return this.cookie;
  }

  /** A call to the editor's REST API; resolves to `data` of its answer. */
  async rest(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { cookie: this.cookie, 'content-type': 'application/json', 'browser-id': 'blockwire-e2e' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
    return (JSON.parse(text) as { data?: unknown }).data;
  }

  /** A call to the public API (`/api/v1`) with the API key. */
  async publicApi(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}/api/v1${path}`, {
      method,
      headers: { 'x-n8n-api-key': this.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /api/v1${path}: HTTP ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** Every execution of a workflow with its data, oldest first. */
  async executions(workflowId: string): Promise<Execution[]> {
    const all: Execution[] = [];
    let cursor: string | undefined;
    do {
      const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
      if (cursor) query.set('cursor', cursor);
      const page = (await this.publicApi('GET', `/executions?${query}`)) as {
        data: Execution[];
        nextCursor?: string | null;
      };
      all.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return all.sort((a, b) => Number(a.id) - Number(b.id));
  }
}

export interface Execution {
  id: string;
  status: string;
  mode: string;
  startedAt: string;
  data?: {
    resultData?: { runData?: Record<string, { data?: { main?: { json: Record<string, unknown> }[][] } }[]> };
  };
}

/** The items a node output in an execution. */
export function itemsOf(execution: Execution, nodeName: string): Record<string, unknown>[] {
  const runs = execution.data?.resultData?.runData?.[nodeName] ?? [];
  return runs.flatMap((run) => run.data?.main?.[0] ?? []).map((item) => item.json);
}

/** Writes n8n import files: credentials as one array, workflows one file each. */
export function writeImportFiles(
  environment: N8nEnvironment,
  files: { credentials: unknown[]; workflows: { id: string }[] },
): { credentials: string; workflows: string } {
  const credentials = join(environment.root, 'credentials.json');
  writeFileSync(credentials, JSON.stringify(files.credentials));
  const workflows = join(environment.root, 'workflows');
  mkdirSync(workflows, { recursive: true });
  for (const workflow of files.workflows) {
    writeFileSync(join(workflows, `${workflow.id}.json`), JSON.stringify(workflow));
  }
  return { credentials, workflows };
}

export function removeEnvironment(environment: N8nEnvironment | undefined): void {
  if (environment) rmSync(environment.root, { recursive: true, force: true });
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Signals the process group we started (n8n and its task runners), by its id. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
