/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * What every real-n8n test file sets up before its first test: the emulator, n8n (installed once,
 * see e2e/install-n8n.ts) in a fresh user folder with this package loaded, one Blockwire credential
 * pointing at the emulator, the file's workflows imported, the server started and its owner set up.
 * Everything it started is stopped after the file's last test; a failing test prints the server's
 * last output.
 */
import { join } from 'node:path';
import { type Emulator, type EmulatorOptions, startEmulator } from '@blockwire/emulator';
import { skipped } from '@blockwire/testing/skips';
import { afterAll, beforeAll, beforeEach, expect, onTestFailed } from 'vitest';
import { ensureN8n, type N8nInstall } from '../../e2e/install-n8n.ts';
import {
  type CliResult,
  executeOutput,
  N8nApi,
  type N8nEnvironment,
  type N8nProcess,
  prepareN8n,
  removeEnvironment,
  runN8nCli,
  startN8nServer,
  writeImportFiles,
} from '../../e2e/n8n.ts';
import { type CredentialRef, credentialImport } from '../../e2e/workflows.ts';
import { credentialsFor } from './emulator';

const packageDir = join(__dirname, '..', '..');

/** What a file imports besides the Blockwire credential: n8n's import format. */
export interface N8nImports {
  credentials?: unknown[];
  workflows: { id: string }[];
}

export interface N8nWithEmulatorOptions {
  /** The Blockwire credential the workflows reference; imported with the emulator's key and URLs. */
  credential: CredentialRef;
  /** The emulator's options; the default runs anvil with seed 7 (the JSON-RPC and wallet reads). */
  emulator?: EmulatorOptions;
  /** n8n's N8N_WEBHOOK_URL, asked for in the set-up (a proxy started before it); by default n8n's own URL. */
  webhookUrl?: () => string;
  /** The file's workflows and other credentials, built once the emulator runs. */
  imports: (emulator: Emulator) => N8nImports | Promise<N8nImports>;
}

export interface N8nWithEmulator {
  /** Whether the set-up ran to its end (not when the n8n suites are skipped). */
  readonly ready: boolean;
  readonly install: N8nInstall;
  readonly emulator: Emulator;
  readonly environment: N8nEnvironment;
  /** The running `n8n start` (another process after `restart()`). */
  readonly server: N8nProcess;
  /** The owner's REST and public API. */
  readonly api: N8nApi;
  /** n8n stops and starts again: same folder, database and port, so the owner's API key still holds. */
  restart(): Promise<void>;
  /** An n8n command line command beside the server (`execute`, `export:nodes`). */
  cli(args: string[], options?: { timeoutMs?: number }): Promise<CliResult>;
  /**
   * Runs an imported workflow with `n8n execute` beside the server, fails if it failed or printed
   * the emulator's key or any of `secrets`; resolves to each node's output items.
   */
  execute(id: string, options?: { secrets?: readonly string[] }): Promise<NodeOutput>;
}

/** The items a node output, by node name; throws for a node that did not run. */
export type NodeOutput = (node: string) => Record<string, unknown>[];

interface Started {
  install: N8nInstall;
  emulator: Emulator;
  environment?: N8nEnvironment;
  server?: N8nProcess;
  api?: N8nApi;
}

/** Registers the file's set-up and tear-down; the getters hold once the file's tests run. */
export function useN8nWithEmulator(options: N8nWithEmulatorOptions): N8nWithEmulator {
  let started: Partial<Started> = {};
  const ready = <K extends keyof Started>(key: K): NonNullable<Started[K]> => {
    const value = started[key];
    if (value === undefined) throw new Error(`n8n's ${key} is set up in beforeAll`);
    return value as NonNullable<Started[K]>;
  };
  beforeAll(async () => {
    if (skipped('n8n')) return;
    started.install = await ensureN8n(); // minutes the first time on a machine, then reused
    started.emulator = await startEmulator(options.emulator ?? { seed: 7 });
    started.environment = await prepareN8n({ packageDir, webhookUrl: options.webhookUrl?.() });
    await importInto(started as Started, options);
    started.server = await startN8nServer(started.install, started.environment);
    started.api = new N8nApi(started.server.url);
    await started.api.setUp();
  }, 15 * 60_000);

  afterAll(async () => {
    await started.server?.stop();
    await started.emulator?.close();
    removeEnvironment(started.environment);
    started = {};
  }, 60_000);

  beforeEach(() => {
    onTestFailed(() => {
      console.error(
        `--- n8n server output (last 6000 characters) ---\n${started.server?.output().slice(-6000) ?? ''}`,
      );
    });
  });

  const cli: N8nWithEmulator['cli'] = async (args, cliOptions) =>
    await runN8nCli(ready('install'), ready('environment'), args, cliOptions);
  return {
    get ready() {
      return started.api !== undefined;
    },
    get install() {
      return ready('install');
    },
    get emulator() {
      return ready('emulator');
    },
    get environment() {
      return ready('environment');
    },
    get server() {
      return ready('server');
    },
    get api() {
      return ready('api');
    },
    async restart() {
      await ready('server').stop();
      started.server = await startN8nServer(ready('install'), ready('environment'));
    },
    cli,
    async execute(id, executeOptions) {
      const result = await cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 180_000 });
      return outputOf(id, result, [ready('emulator').apiKey, ...(executeOptions?.secrets ?? [])]);
    },
  };
}

/** What `n8n execute` returns: the run data of every node. */
interface RunData {
  data: {
    resultData: { runData: Record<string, { data?: { main?: { json: Record<string, unknown> }[][] } }[]> };
  };
}

function outputOf(id: string, result: CliResult, secrets: readonly string[]): NodeOutput {
  const everything = result.stdout + result.stderr;
  if (result.code !== 0 && !finishedBeforeSignal(result))
    throw new Error(
      `n8n execute --id=${id} exited ${result.code ?? result.signal}:\n${everything.slice(-6000)}`,
    );
  for (const secret of secrets) expect(everything).not.toContain(secret);
  const run = executeOutput(result.stdout) as RunData;
  return (node) => {
    const runs = run.data.resultData.runData[node];
    if (!runs) throw new Error(`node "${node}" did not run in ${id}`);
    return runs.flatMap((entry) => entry.data?.main?.[0] ?? []).map((item) => item.json);
  };
}

/**
 * Whether `n8n execute` printed a finished, successful run and was then ended by a signal that was
 * not our timeout's. Beside four CPU-bound processes it once died so (exit code null) while shutting
 * down, after printing the whole run: the run is judged on what it printed; one that did not finish,
 * or that our timeout killed, still fails.
 */
function finishedBeforeSignal(result: CliResult): boolean {
  if (result.code !== null || result.signal === null || result.timedOut) return false;
  try {
    const run = executeOutput(result.stdout) as { finished?: boolean; status?: string } | undefined;
    return run?.finished === true && run.status === 'success';
  } catch {
    return false;
  }
}

/** The Blockwire credential for the emulator and the file's imports, through n8n's command line. */
async function importInto(started: Started, options: N8nWithEmulatorOptions): Promise<void> {
  const environment = started.environment!;
  const imports = await options.imports(started.emulator);
  const files = writeImportFiles(environment, {
    credentials: [
      credentialImport(options.credential, { ...credentialsFor(started.emulator) }),
      ...(imports.credentials ?? []),
    ],
    workflows: imports.workflows,
  });
  for (const args of [
    ['import:credentials', `--input=${files.credentials}`],
    ['import:workflow', '--separate', `--input=${files.workflows}`],
  ]) {
    const result = await runN8nCli(started.install, environment, args);
    if (result.code !== 0)
      throw new Error(`n8n ${args[0]} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
}
