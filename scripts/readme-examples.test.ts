/**
 * Every code block of every README, run as written against a fresh `blockwire-emulator`.
 *
 * TypeScript and JavaScript blocks run as programs with Node (TypeScript type-checked with tsc
 * first, strict), shell blocks with bash; each must exit 0 and print what its comments claim
 * (`console.log(x); // true`). They get the environment the READMEs tell a user to set:
 * `BLOCKWIRE_API_KEY`, `BLOCKWIRE_<INTERFACE>_URL` for each interface of the emulator,
 * `BLOCKWIRE_CONTROL_URL`, `BLOCKWIRE_WEBHOOK_URL` (a receiver answering 200) and
 * `BLOCKWIRE_WEBHOOK_SECRET` (the emulator's signing secret). The markers a README puts above a
 * block (`<!-- not run: why -->`, …) are described in readme-blocks.ts; a block that is neither
 * run nor marked fails here.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createClient } from '@blockwire/core';
import { DEFAULT_SECRET_KEY } from '@blockwire/emulator';
import {
  addBitcoinStreamAddress,
  createBitcoinStream,
  deleteBitcoinStream,
  getBitcoinStream,
  operations as streamOperations,
} from '@blockwire/streams/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeBlocks,
  type Language,
  missingClaim,
  type Program,
  printedClaims,
  programsOf,
} from './readme-blocks.js';

const root = join(import.meta.dirname, '..');
const PROGRAM_TIMEOUT_MS = 30_000;

/** The READMEs of the repository: the root's and each package's, app's and the benchmarks'. */
const readmes = [
  'README.md',
  ...['packages', 'apps'].flatMap((folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder)).map((name) => `${folder}/${name}/README.md`)
      : [],
  ),
  'bench/README.md',
].filter((path) => existsSync(join(root, path)));

const workDir = mkdtempSync(join(tmpdir(), 'blockwire-readme-examples-'));
// Programs import the packages by name, as a user's project would: each package the workspace
// installed is linked into the folder's own node_modules (links, so nothing a program does there
// can reach the workspace's node_modules).
writeFileSync(join(workDir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
linkPackages(join(root, 'node_modules'), join(workDir, 'node_modules'));

function linkPackages(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) linkPackages(join(from, name), join(to, name));
    else symlinkSync(realpathSync(join(from, name)), join(to, name), 'dir');
  }
}
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function folderOf(example: Program): string {
  return join(workDir, `${example.readme.replaceAll('/', '_')}_${example.block.line}`);
}

function writeProgram(example: Program): string {
  const dir = folderOf(example);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `example.${example.language}`);
  writeFileSync(file, example.source);
  return file;
}

interface Emulator {
  apiKey: string;
  urls: Record<string, string>;
  control: string;
}

/**
 * The `blockwire-emulator` command the emulator's README starts; resolves at its ready line. Run by
 * the path its package.json `bin` names: on a fresh clone pnpm links no `.bin` entry for it, since
 * the file does not exist before the build.
 */
async function startEmulatorCli(): Promise<{ emulator: Emulator; stop: () => Promise<void> }> {
  const emulatorDir = join(root, 'packages', 'emulator');
  const { bin } = JSON.parse(readFileSync(join(emulatorDir, 'package.json'), 'utf8'));
  const child = spawn(process.execPath, [join(emulatorDir, bin['blockwire-emulator'])], {
    cwd: root,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`blockwire-emulator exited (${code}) before it was ready: ${stderr}`);
  });
  const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
  lines.close();
  return {
    emulator: JSON.parse(line) as Emulator,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exit = once(child, 'exit');
      child.kill('SIGTERM');
      await exit;
    },
  };
}

/** Stands in for a user's webhook receiver: answers every POST 200. */
async function startReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/blockwire` };
}

function environment(emulator: Emulator, webhookUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    BLOCKWIRE_API_KEY: emulator.apiKey,
    ...Object.fromEntries(
      Object.entries(emulator.urls).map(([api, url]) => [`BLOCKWIRE_${api.toUpperCase()}_URL`, url]),
    ),
    BLOCKWIRE_CONTROL_URL: emulator.control,
    BLOCKWIRE_WEBHOOK_URL: webhookUrl,
    BLOCKWIRE_WEBHOOK_SECRET: DEFAULT_SECRET_KEY,
  };
}

function command(language: Language, file: string): [string, string[]] {
  return language === 'sh' ? ['bash', ['-e', '-o', 'pipefail', file]] : [process.execPath, [file]];
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function start(example: Program, env: NodeJS.ProcessEnv): ChildProcess {
  const file = writeProgram(example);
  const [bin, args] = command(example.language, file);
  // Its own process group, so a timeout also stops what the program started.
  return spawn(bin, args, { cwd: dirname(file), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

function stopGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function run(example: Program, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const child = start(example, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup(child);
  }, PROGRAM_TIMEOUT_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr, timedOut };
}

function describeFailure(example: Program, outcome: Outcome): string {
  const why = outcome.timedOut
    ? `did not exit within ${PROGRAM_TIMEOUT_MS / 1000} s (a client or server left open?)`
    : `exited ${outcome.code}`;
  return `${example.readme}:${example.block.line} ${why}\n--- stdout\n${outcome.stdout}--- stderr\n${outcome.stderr}`;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the receiver exited (${child.exitCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
        .once('connect', () => resolve(socket.end() && true))
        .once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`the receiver did not listen on $PORT (${port}) within 15 s:\n${output()}`);
}

/**
 * A receiver runs until stopped: it gets a real Bitcoin stream pointed at it, a payment to a
 * watched address and three blocks, and must answer the verification POST and log a confirmed delivery.
 */
async function runReceiver(example: Program, emulator: Emulator, env: NodeJS.ProcessEnv): Promise<string> {
  const port = await freePort();
  const child = start(example, { ...env, PORT: String(port) });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
  const control = (path: string, body: unknown) =>
    fetch(`${emulator.control}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => {
      if (!response.ok) throw new Error(`control ${path}: ${response.status}`);
    });
  try {
    await waitForPort(port, child, () => output);
    const address = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
    const stream = await createBitcoinStream(client, {
      webhookUrl: `http://127.0.0.1:${port}/webhooks/blockwire`,
      description: `${example.readme}:${example.block.line}`,
    });
    expect(stream.status, `verification POST answered: ${stream.statusMessage}\n${output}`).toBe('active');
    await addBitcoinStreamAddress(client, { id: stream.id, address });
    await control('/bitcoin/transactions', { to: address, amountBtc: '0.01' });
    await control('/bitcoin/mine', { blocks: 3 });
    const deadline = Date.now() + 15_000;
    while (!/confirmed/.test(output) && Date.now() < deadline && child.exitCode === null) await sleep(100);
    expect(output, 'the receiver logs the confirmed delivery').toMatch(/confirmed/);
    expect((await getBitcoinStream(client, { id: stream.id })).status).toBe('active');
    expect(child.exitCode, `the receiver kept running:\n${output}`).toBeNull();
    await deleteBitcoinStream(client, { id: stream.id });
    return output;
  } finally {
    await client.close();
    const closed = once(child, 'close');
    stopGroup(child);
    await closed;
  }
}

const execFileAsync = promisify(execFile);

/** One strict tsc run over every TypeScript program, as a newcomer's TypeScript project would check them. */
async function typecheck(examples: Program[]): Promise<string[]> {
  const dir = join(workDir, 'typecheck');
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, Program>();
  for (const example of examples) {
    const name = `${example.readme.replaceAll('/', '_')}_${example.block.line}.ts`;
    writeFileSync(join(dir, name), example.source);
    files.set(name, example);
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        moduleDetection: 'force',
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  try {
    await execFileAsync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
      {
        cwd: dir,
      },
    );
    return [];
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? String(error);
    return out
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const match = /^(\S+?\.ts)\((\d+),\d+\): (.*)$/.exec(line);
        const example = match && files.get(match[1]!);
        return example
          ? `${example.readme}:${example.block.line} (program line ${match[2]}): ${match[3]}`
          : line;
      });
  }
}

const all = readmes.map((readme) => ({
  readme,
  ...programsOf(readme, readFileSync(join(root, readme), 'utf8')),
}));

describe('README code blocks', () => {
  it('finds the READMEs', () => {
    expect(readmes).toContain('README.md');
    expect(readmes.filter((path) => path.startsWith('packages/')).length).toBeGreaterThanOrEqual(6);
  });

  it.each(all)('$readme marks every block it does not run', ({ problems }) => {
    expect(problems).toEqual([]);
  });

  it('runs each block of the rpc README alone, as a reader copies one (none continues another)', () => {
    const rpc = all.find(({ readme }) => readme === 'packages/rpc/README.md');
    expect(rpc?.blocks.filter((block) => block.marker?.kind === 'runs after')).toEqual([]);
    expect(rpc?.examples.length).toBeGreaterThan(15);
  });

  it('type-checks every TypeScript block (strict)', async () => {
    const errors = await typecheck(
      all.flatMap(({ examples }) => examples.filter((e) => e.language === 'ts')),
    );
    expect(errors).toEqual([]);
  }, 120_000);
});

/**
 * A block telling the user what to export (`export BLOCKWIRE_EVM_URL=http://127.0.0.1:4010/...`
 * after `npx blockwire-emulator --port 4010`) must name every variable the programs here get,
 * with the values of the emulator's ready line on that port.
 */
function checkExports(code: string, emulator: Emulator, env: NodeJS.ProcessEnv): void {
  const exported = Object.fromEntries(
    [...code.matchAll(/^export (BLOCKWIRE_\w+)=(\S+)/gm)].map(([, name, value]) => [name!, value!]),
  );
  const port = /--port (\d+)/.exec(code)?.[1];
  expect(port, 'the block starts the emulator on a fixed --port').toBeDefined();
  const ours = `:${new URL(emulator.control).port}/`;
  const expected = Object.fromEntries(
    Object.entries(env)
      .filter(([name]) => name.startsWith('BLOCKWIRE_'))
      // Where the user's receiver listens is theirs to choose.
      .map(([name, value]) => [
        name,
        name === 'BLOCKWIRE_WEBHOOK_URL' ? exported[name] : value!.replace(ours, `:${port}/`),
      ]),
  );
  expect(exported).toEqual(expected);
}

describe.each(all.filter(({ examples }) => examples.length > 0))('$readme', ({ blocks, examples }) => {
  let emulator: Emulator;
  let stopEmulator: () => Promise<void>;
  let receiver: Server;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ emulator, stop: stopEmulator } = await startEmulatorCli());
    const started = await startReceiver();
    receiver = started.server;
    env = environment(emulator, started.url);
  });
  afterAll(async () => {
    await stopEmulator?.();
    receiver?.close();
  });

  const exportBlocks = blocks.filter((block) => /^export BLOCKWIRE_/m.test(block.code));
  if (exportBlocks.length > 0)
    it('tells what to export, as the emulator says it', () => {
      for (const block of exportBlocks) checkExports(block.code, emulator, env);
    });

  it.each(examples.map((example) => ({ name: `line ${example.block.line} (${example.language})`, example })))(
    '$name runs as written',
    async ({ example }) => {
      if (example.receiver) {
        await runReceiver(example, emulator, env);
        return;
      }
      const outcome = await run(example, env);
      expect(outcome.code, describeFailure(example, outcome)).toBe(0);
      const missing = missingClaim(outcome.stdout, printedClaims(example.source));
      expect(
        missing,
        `${example.readme}:${example.block.line} never printed the line its comment claims, ${JSON.stringify(missing)}\n--- stdout\n${outcome.stdout}`,
      ).toBeUndefined();
    },
    PROGRAM_TIMEOUT_MS + 30_000,
  );
});

describe('README coverage', () => {
  const streams = readFileSync(join(root, 'packages', 'streams', 'README.md'), 'utf8');

  it('has a section for every streams management call', () => {
    const headings = streams.split('\n').filter((line) => line.startsWith('### '));
    for (const { id } of streamOperations) expect(headings.join('\n')).toContain(`\`${id}(`);
    expect(headings.join('\n')).toContain('`addBitcoinStreamAddresses(');
  });

  it('has a webhook kit example for every function, with node:http and Express receivers', () => {
    const kit = streams.slice(streams.indexOf('## Webhook kit'));
    const code = codeBlocks(kit).map((block) => block.code);
    expect(code.some((source) => source.includes("from 'node:http'"))).toBe(true);
    expect(code.some((source) => source.includes("from 'express'"))).toBe(true);
    for (const name of [
      'verifySignature',
      'signBody',
      'assertValidSignature',
      'isVerificationRequest',
      'parseBitcoinWebhook',
      'parseEvmWebhook',
      'bitcoinDeliveryStage',
      'isCoinbaseTransaction',
      'btcToSats',
      'satsToBtc',
      'createBitcoinTxTracker',
      'createSqliteTxStore',
      'createWebhookHandler',
    ]) {
      expect(
        code.some((source) => source.includes(`${name}(`)),
        name,
      ).toBe(true);
    }
  });
});
