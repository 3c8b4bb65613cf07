/**
 * A browser page under `Content-Security-Policy: script-src 'self'` (no eval, no WebAssembly
 * compiled from bytes), in Debian's Chromium driven by playwright-core (from the registry, like
 * esbuild, which bundles the page as a browser app would be bundled): a price call to the
 * emulator, and the emulator's real signed deliveries checked by the webhook kit in the page.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '@blockwire/testing/chromium';
import { skipped } from '@blockwire/testing/skips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, consumerProject, removeTarballs } from './harness/project.js';
import { deliverPayment, type Service, startService, USDC } from './harness/service.js';

const CHROMIUM_STACK = {
  name: 'chromium-csp',
  dependencies: { 'playwright-core': '1.65.1', esbuild: '0.28.2' },
  blockwire: ['@blockwire/core', '@blockwire/prices', '@blockwire/streams'],
};
const CSP = "script-src 'self'";

// Runs on load, by itself: code run through page.evaluate is exempt from the page's eval policy
// (DevTools allows it there), so nothing under test may run that way. It reads what to do from
// /params.json and leaves its result in window.result.
const PAGE_SCRIPT = `
import { createClient } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { createWebhookHandler } from '@blockwire/streams/webhooks';

async function main() {
  const { apiKey, evmUrl, secret, deliveries } = await (await fetch('/params.json')).json();
  let codeGenerationRefused = false;
  try { new Function('return 1')(); } catch { codeGenerationRefused = true; }

  const client = createClient({ apiKey, baseUrls: { evm: evmUrl }, timeoutMs: 10000 });
  const price = await getEvmTokenPrice(client, { address: '${USDC}' });

  const stages = [];
  const handler = createWebhookHandler({ secret, onBitcoin: (payload, { stage }) => stages.push(stage) });
  const statuses = [];
  for (const { body, signature } of deliveries) {
    const request = new Request(location.origin + '/webhooks/blockwire', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
    });
    statuses.push((await handler.fetch(request)).status);
  }
  await handler.idle();
  return { codeGenerationRefused, symbol: price.tokenSymbol, statuses, stages };
}

main().then(
  (result) => { window.result = result; document.title = 'done'; },
  (error) => { window.result = { error: String(error && error.stack || error) }; document.title = 'done'; },
);
`;

interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Page {
  goto(url: string, options?: { timeout?: number }): Promise<unknown>;
  waitForFunction(fn: () => boolean, arg?: unknown, options?: { timeout?: number }): Promise<unknown>;
  evaluate<T>(fn: () => T): Promise<T>;
  on(event: 'console', listener: (message: { text(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
}
interface PageResult {
  codeGenerationRefused: boolean;
  symbol: string;
  statuses: number[];
  stages: string[];
  error?: string;
}

let project: ConsumerProject;
let service: Service;
let pageServer: Server;
let browser: Browser | undefined;
let profile: string | undefined;
let result: PageResult;
const pageLog: string[] = [];

/** The emulator's deliveries of one payment, as received: the raw body and its x-signature. */
async function captureDeliveries(): Promise<{ body: string; signature: string }[]> {
  const captured: { body: string; signature: string }[] = [];
  const collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers['x-signature'];
      if (body && typeof signature === 'string') captured.push({ body, signature });
      response.writeHead(200).end();
    });
  });
  collector.listen(0, '127.0.0.1');
  await once(collector, 'listening');
  try {
    await deliverPayment(service, `http://127.0.0.1:${(collector.address() as { port: number }).port}/`);
  } finally {
    collector.close();
  }
  return captured;
}

beforeAll(async () => {
  await ensureChromium();
  project = await consumerProject(CHROMIUM_STACK);
  const resolve = createRequire(join(project.dir, 'package.json')).resolve;
  const esbuild = (await import(pathToFileURL(resolve('esbuild')).href)) as {
    build(options: Record<string, unknown>): Promise<unknown>;
  };
  writeFileSync(join(project.dir, 'page.mjs'), PAGE_SCRIPT);
  await esbuild.build({
    entryPoints: [join(project.dir, 'page.mjs')],
    outfile: join(project.dir, 'dist', 'page.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const bundle = readFileSync(join(project.dir, 'dist', 'page.js'));
  let params = '{}';
  pageServer = createServer((request, response) => {
    if (request.url === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else if (request.url === '/params.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(params);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html', 'content-security-policy': CSP })
        .end('<!doctype html><title>running</title><script type="module" src="/page.js"></script>');
    }
  });
  pageServer.listen(0, '127.0.0.1');
  await once(pageServer, 'listening');
  const pageOrigin = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;
  service = await startService({ allowedOrigins: [pageOrigin] });

  const deliveries = await captureDeliveries();
  expect(deliveries, 'the emulator delivered mempool, in-block and confirmed').toHaveLength(3);
  const forged = {
    ...deliveries[0]!,
    body: deliveries[0]!.body.replace('"confirmed":false', '"confirmed":true'),
  };
  expect(forged.body).not.toBe(deliveries[0]!.body);
  params = JSON.stringify({
    apiKey: service.apiKey,
    evmUrl: service.urls.evm,
    secret: service.secret,
    deliveries: [...deliveries, forged],
  });

  const { chromium } = (await import(pathToFileURL(resolve('playwright-core')).href)) as {
    chromium: { launchPersistentContext(dir: string, options: Record<string, unknown>): Promise<Browser> };
  };
  profile = mkdtempSync(join(tmpdir(), 'blockwire-csp-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    timeout: 60_000,
  });
  const page = await browser.newPage();
  page.on('console', (message) => pageLog.push(message.text()));
  page.on('pageerror', (error) => pageLog.push(`pageerror: ${error.message}`));
  await page.goto(pageOrigin, { timeout: 30_000 });
  await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 60_000 });
  result = await page.evaluate(() => (window as unknown as { result: PageResult }).result);
  expect(result.error, pageLog.join('\n')).toBeUndefined();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  pageServer?.close();
  await service?.close();
  await project?.remove();
  if (profile) await rm(profile, { recursive: true, force: true });
  await removeTarballs();
});

describe.skipIf(skipped('chromium'))(`Chromium, a page with Content-Security-Policy: ${CSP}`, () => {
  it('runs under the policy: the page itself cannot generate code', () => {
    expect(result.codeGenerationRefused).toBe(true);
  });

  it('a price call works', () => {
    expect(result.symbol).toBe('USDC');
  });

  it("the webhook kit accepts the emulator's genuine deliveries and refuses a forged one", () => {
    expect({ statuses: result.statuses, stages: result.stages }).toEqual({
      statuses: [200, 200, 200, 401],
      stages: ['mempool', 'in-block', 'confirmed'],
    });
  });
});
