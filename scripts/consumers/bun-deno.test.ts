/**
 * Bun and Deno, each from its npm package, in a project of its own: a price call and the RPC
 * client against the emulator, and the streams README's `Bun.serve` / `Deno.serve` receiver
 * taking the emulator's real signed deliveries. A runtime whose binary does not run here is
 * reported as skipped, by name, with the reason.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runProgram, startServer } from './harness/processes.js';
import { type ConsumerProject, consumerProject, removeTarballs } from './harness/project.js';
import { receiverEnv, recipe } from './harness/recipes.js';
import {
  deliverPayment,
  EXPECTED_GUARD_ANSWERS,
  guardAnswers,
  type Service,
  stagesLogged,
  startService,
  USDC,
} from './harness/service.js';

const BLOCKWIRE = ['@blockwire/core', '@blockwire/prices', '@blockwire/rpc', '@blockwire/streams'];
const RUNTIMES = [
  {
    stack: 'Bun',
    spec: { name: 'bun', dependencies: { bun: '1.4.5' }, installScripts: ['bun'], blockwire: BLOCKWIRE },
    bin: 'bun',
    run: (file: string) => [file],
    recipe: 'bun',
  },
  {
    stack: 'Deno',
    spec: { name: 'deno', dependencies: { deno: '2.9.6' }, blockwire: BLOCKWIRE },
    bin: 'deno',
    run: (file: string) => ['run', '--allow-net', '--allow-env', '--allow-read', file],
    recipe: 'deno',
  },
];

/** Run by each runtime: which build of core it got, a price and the latest block, as JSON. */
const SDK_PROGRAM = `
import { createClient, createUndiciTransport } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { createRpcClient } from '@blockwire/rpc';

const env = globalThis.Deno ? Deno.env.toObject() : process.env;
// The fetch build's undici transport throws, saying so; the Node build's makes a pool.
let build = 'node';
try { createUndiciTransport(); } catch { build = 'fetch'; }
const client = createClient({
  apiKey: env.BLOCKWIRE_API_KEY,
  baseUrls: { evm: env.BLOCKWIRE_EVM_URL, node: env.BLOCKWIRE_NODE_URL },
  timeoutMs: 10000,
});
const price = await getEvmTokenPrice(client, { address: '${USDC}' });
const block = await createRpcClient(client, { chain: 'eth' }).getBlockByNumber('latest');
console.log(JSON.stringify({ build, symbol: price.tokenSymbol, block: Number(block.number) }));
await client.close();
`;

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
  await removeTarballs();
});

describe.each(RUNTIMES)('$stack (npm package $spec.dependencies)', (runtime) => {
  let project: ConsumerProject;
  let binary: string;
  let unavailable: string | undefined;
  beforeAll(async () => {
    project = await consumerProject(runtime.spec);
    binary = join(project.dir, 'node_modules', '.bin', runtime.bin);
    try {
      await project.run(binary, ['--version'], { timeoutMs: 30_000 });
    } catch (error) {
      unavailable = `${runtime.stack} does not run on this machine: ${(error as Error).message.split('\n')[0]}`;
    }
  }, 600_000);
  afterAll(async () => {
    await project?.remove();
  });

  it('gets the fetch build; a price call and rpc.getBlockByNumber work', async (context) => {
    if (unavailable) return context.skip(unavailable);
    const file = join(project.dir, 'sdk.mjs');
    writeFileSync(file, SDK_PROGRAM);
    const outcome = await runProgram(binary, runtime.run(file), {
      cwd: project.dir,
      env: receiverEnv(service.env),
      timeoutMs: 60_000,
    });
    expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
    const result = JSON.parse(outcome.stdout.trim().split('\n').pop()!);
    expect(result).toEqual({ build: 'fetch', symbol: 'USDC', block: expect.any(Number) });
    expect(result.block).toBeGreaterThan(0);
  }, 120_000);

  it('the streams README recipe takes real signed deliveries, 401 before parse', async (context) => {
    if (unavailable) return context.skip(unavailable);
    const file = join(project.dir, 'server.mjs');
    writeFileSync(file, recipe(runtime.recipe));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/webhooks/blockwire`;
    const server = await startServer(binary, runtime.run(file), {
      cwd: project.dir,
      env: receiverEnv({ PORT: String(port), BLOCKWIRE_WEBHOOK_SECRET: service.secret }),
      url,
    });
    try {
      expect(await guardAnswers(service, url), server.output()).toEqual(EXPECTED_GUARD_ANSWERS);
      await deliverPayment(service, url, server.output);
      for (let i = 0; i < 50 && !stagesLogged(server.output()); i++) await sleep(100);
      expect(stagesLogged(server.output()), `the callback logs each stage:\n${server.output()}`).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
