/**
 * Cloudflare's runtime (workerd, run locally through miniflare, both from the registry): a Worker
 * bundled as wrangler bundles one (esbuild, conditions workerd/worker/browser) calls a price and
 * the RPC client inside a request — where workerd refuses code generation and WebAssembly
 * compiled from bytes — and the streams README's Worker and Hono-on-Workers recipes take the
 * emulator's real signed deliveries.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './harness/processes.js';
import { type ConsumerProject, consumerProject, removeTarballs } from './harness/project.js';
import { recipe } from './harness/recipes.js';
import {
  CONNECTION_RESET,
  deliverPayment,
  EXPECTED_GUARD_ANSWERS,
  guardAnswers,
  type Service,
  stagesLogged,
  startService,
  USDC,
} from './harness/service.js';

const WORKERD_STACK = {
  name: 'workerd',
  dependencies: { miniflare: '4.20260730.0', esbuild: '0.28.2', hono: '4.13.19' },
  blockwire: ['@blockwire/core', '@blockwire/prices', '@blockwire/rpc', '@blockwire/streams'],
};
const COMPATIBILITY_DATE = '2025-09-01';

// What the test needs of miniflare and esbuild, as loaded from the consumer project.
interface MiniflareInstance {
  ready: Promise<URL>;
  dispatchFetch(url: string, init?: RequestInit): Promise<Response>;
  dispose(): Promise<void>;
}
type MiniflareClass = new (options: Record<string, unknown>) => MiniflareInstance;
interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

let project: ConsumerProject;
let Miniflare: MiniflareClass;
let esbuild: Esbuild;
let service: Service;

beforeAll(async () => {
  project = await consumerProject(WORKERD_STACK);
  const resolve = createRequire(join(project.dir, 'package.json')).resolve;
  ({ Miniflare } = (await import(pathToFileURL(resolve('miniflare')).href)) as { Miniflare: MiniflareClass });
  esbuild = (await import(pathToFileURL(resolve('esbuild')).href)) as Esbuild;
  service = await startService();
}, 600_000);
afterAll(async () => {
  await service?.close();
  await project?.remove();
  await removeTarballs();
});

/** Bundles `source` as wrangler does for a Worker: one ES module, the runtime's export conditions. */
async function bundleWorker(name: string, source: string): Promise<string> {
  const entry = join(project.dir, `${name}.worker.mjs`);
  const outfile = join(project.dir, 'dist', `${name}.mjs`);
  writeFileSync(entry, source);
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
  });
  return outfile;
}

/** A Worker in workerd; its console output collected. */
async function startWorker(
  scriptPath: string,
  bindings: Record<string, string>,
  port?: number,
): Promise<{ mf: MiniflareInstance; url: URL; output: () => string }> {
  let output = '';
  const collect = (stream: NodeJS.ReadableStream) =>
    stream.on('data', (chunk: Buffer) => {
      output += chunk;
    });
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    // Module names are relative to this folder (by default the process's, which the bundle is outside of).
    modulesRoot: dirname(scriptPath),
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    host: '127.0.0.1',
    ...(port === undefined ? {} : { port }),
    handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
      collect(stdout);
      collect(stderr);
    },
    // The Worker's console.log arrives as structured logs.
    structuredWorkerdLogs: true,
    handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
      output += `${level}: ${message}\n`;
    },
    logRequests: false,
    telemetry: { enabled: false },
  });
  const url = await mf.ready;
  return { mf, url, output: () => output };
}

const SDK_WORKER = `
import { createClient } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { createRpcClient } from '@blockwire/rpc';

export default {
  async fetch(request, env) {
    const client = createClient({
      apiKey: env.BLOCKWIRE_API_KEY,
      baseUrls: { evm: env.BLOCKWIRE_EVM_URL, node: env.BLOCKWIRE_NODE_URL },
      timeoutMs: 10000,
    });
    try {
      const price = await getEvmTokenPrice(client, { address: '${USDC}' });
      const block = await createRpcClient(client, { chain: 'eth' }).getBlockByNumber('latest');
      return Response.json({ symbol: price.tokenSymbol, usdPrice: price.usdPrice, block: Number(block.number) });
    } catch (error) {
      return Response.json({ error: String(error && error.stack || error) }, { status: 500 });
    }
  },
};
`;

describe('workerd (Cloudflare Workers) through miniflare', () => {
  it('a price call and rpc.getBlockByNumber work inside a request', async () => {
    const script = await bundleWorker('sdk', SDK_WORKER);
    const { mf, output } = await startWorker(script, service.env);
    try {
      // Twice: the first request is not special (code generation is refused in every one).
      for (let i = 0; i < 2; i++) {
        const response = await mf.dispatchFetch('http://worker.local/', {
          signal: AbortSignal.timeout(20_000),
        });
        const result = (await response.json()) as Record<string, unknown>;
        expect(result, output()).toEqual({
          symbol: 'USDC',
          usdPrice: expect.any(Number),
          block: expect.any(Number),
        });
        expect(result.block as number).toBeGreaterThan(0);
      }
    } finally {
      await mf.dispose();
    }
  }, 120_000);

  it.each([
    { stack: 'a Cloudflare Worker', name: 'cloudflare-worker' },
    { stack: 'Hono 4 on Workers', name: 'hono-workers' },
  ])(
    '$stack (the streams README recipe) accepts a genuine delivery, 401 before parse',
    async ({ name }) => {
      const script = await bundleWorker(name, recipe(name));
      const port = await freePort();
      const { mf, output } = await startWorker(script, { BLOCKWIRE_WEBHOOK_SECRET: service.secret }, port);
      try {
        const url = `http://127.0.0.1:${port}/webhooks/blockwire`;
        const answers = await guardAnswers(service, url);
        // The Fetch handler cancels an unsigned upload past the limit rather than read it (CPU is
        // billed in a Worker); workerd then resets the connection, which may beat the 401.
        if (answers.unsignedLarge === CONNECTION_RESET) answers.unsignedLarge = 401;
        expect(answers, output()).toEqual(EXPECTED_GUARD_ANSWERS);
        await deliverPayment(service, url, output);
        for (let i = 0; i < 50 && !stagesLogged(output()); i++) await sleep(100);
        expect(stagesLogged(output()), `the callback logs each stage:\n${output()}`).toBe(true);
      } finally {
        await mf.dispose();
      }
    },
    120_000,
  );
});
