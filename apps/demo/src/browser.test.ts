/**
 * The demo in a real headless Chromium (Debian's, driven by playwright-core), against the
 * emulator: a token price, an entity, a Bitcoin transaction sent and mined through the page's
 * buttons until its row is confirmed, and an EVM test transaction shown in the latest block.
 * Screenshots go to apps/demo/test-artifacts/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from './demo.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

/** Debian's chromium, installed when missing (nothing may download a browser of its own). */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM} is missing: install it with "apt-get update && apt-get install -y chromium" (as root).`,
    );
  }
  const apt = { stdio: 'inherit' as const, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
  execFileSync('apt-get', ['update'], apt);
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], apt);
}

describe('the demo page in Chromium, on the emulator', () => {
  let demo: Demo;
  let browser: BrowserContext;
  let page: Page;
  let dataDir: string;
  let profileDir: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    ensureChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'blockwire-demo-data-'));
    profileDir = mkdtempSync(join(tmpdir(), 'blockwire-demo-chromium-'));
    demo = await startDemo({ backend: { mode: 'emulator' }, port: 0, dataDir, seed: 1, log: () => {} });
    // A persistent context is how playwright takes a --user-data-dir: a fresh one per run.
    browser = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1360, height: 900 },
      deviceScaleFactor: 1,
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      // A 4xx answer the page shows as a sentence is expected (the bad address below).
      const shownProblem = /^Failed to load resource: the server responded with a status of 4\d\d/;
      if (message.type() === 'error' && !shownProblem.test(message.text()))
        consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(demo.url);
    await page.locator('body[data-ready="true"]').waitFor();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    for (const dir of [dataDir, profileDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says it runs on the local emulator', async () => {
    await expect(page.locator('#mode').textContent()).resolves.toContain('Local emulator');
  });

  it('looks up a token price from an example', async () => {
    const panel = page.locator('#price');
    await panel.getByRole('button', { name: /^USDC/ }).click();
    const card = panel.locator('.price-card[data-symbol="USDC"]');
    await card.waitFor();
    await expect(card.locator('[data-role="usd"]').textContent()).resolves.toMatch(/^\$(0\.9|1\.0)/);
    await expect(card.textContent()).resolves.toMatch(/Verified contract[\s\S]*Uniswap v3[\s\S]*\/100/);
    await expect(panel.locator('[data-role="meta"]').textContent()).resolves.toMatch(
      /^1 request to the service/,
    );
  });

  it('shows a bad address as a sentence and marks the field', async () => {
    const panel = page.locator('#price');
    await panel.locator('input[name="address"]').fill('0x1234');
    await panel.getByRole('button', { name: 'Get price' }).click();
    await expect(panel.locator('.error').textContent()).resolves.toBe(
      'The address must be a 0x-prefixed address of 40 hex digits.',
    );
    await expect(panel.locator('input[name="address"]').getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('searches an entity and opens it with its labelled addresses', async () => {
    const panel = page.locator('#entities');
    await panel.locator('input[name="query"]').fill('binance');
    await panel.getByRole('button', { name: 'Search' }).click();
    await panel.locator('.group h3', { hasText: 'Entities' }).waitFor();
    await panel.locator('.entity-link[data-entity="binance"]').click();
    const detail = panel.locator('.detail[data-entity="binance"]');
    await detail.waitFor();
    await expect(detail.textContent()).resolves.toContain('Binance 14');
    await expect(detail.textContent()).resolves.toContain('0x28c6c06298d514db089934071355e5743bf21d60');
  });

  it('sends a Bitcoin transaction and mines 3 blocks: its row goes mempool → in block → confirmed', async () => {
    const panel = page.locator('#bitcoin');
    await panel.locator('[data-role="live"][data-state="live"]').waitFor();
    // Every transaction, so the coinbase of each mined block shows up (marked) too.
    await panel.locator('[data-role="all-addresses"]').check();
    await panel.locator('.message.ok').waitFor();
    await panel.getByRole('button', { name: 'Send transaction' }).click();
    const sent = panel.locator('[data-role="sent-txid"]');
    await sent.waitFor();
    const txid = await sent.getAttribute('data-txid');
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    const row = panel.locator(`tr[data-txid="${txid}"]`);
    await panel.locator(`tr[data-txid="${txid}"][data-stage="mempool"]`).waitFor();

    const mine = panel.getByRole('button', { name: 'Mine a block' });
    for (let block = 0; block < 3; block++) {
      await mine.click();
      await expect.poll(() => mine.isEnabled()).toBe(true);
      if (block === 0) await panel.locator(`tr[data-txid="${txid}"][data-stage="in-block"]`).waitFor();
    }
    await panel.locator(`tr[data-txid="${txid}"][data-stage="confirmed"]`).waitFor({ timeout: 20_000 });
    await expect(row.textContent()).resolves.toContain('0.125 BTC');
    await expect(row.textContent()).resolves.toMatch(/12\s500\s000 sats/);
    await panel.locator('tr .badge.coinbase').first().waitFor();
  });

  it('sends a test transaction and shows it, with its receipt, in the latest EVM block', async () => {
    const panel = page.locator('#blocks');
    const answer = page.waitForResponse((response) =>
      response.url().endsWith('/api/blocks/send-test-transaction'),
    );
    await panel.getByRole('button', { name: 'Send a test transaction' }).click();
    const { hash, blockNumber } = (await (await answer).json()) as { hash: string; blockNumber: number };
    const row = panel.locator('tbody tr', { has: page.locator(`td[title="${hash}"]`) });
    await row.locator('.status-ok').waitFor();
    await expect(row.textContent()).resolves.toMatch(/0xf39f…2266 → 0x[0-9a-f]{4}…[0-9a-f]{4}0\.01/);
    await expect(panel.locator('.facts').textContent()).resolves.toContain(`#${blockNumber} (latest)`);
  });

  it('saves screenshots and logged no error in the console', async () => {
    await page.locator('#price').getByRole('button', { name: /^WETH/ }).click();
    await page.locator('#price .price-card[data-symbol="WETH"]').waitFor();
    await page.locator('#solana').getByRole('button', { name: 'Paste examples' }).click();
    await page.locator('#solana table').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS, 'demo.png'), fullPage: true });
    await page.locator('#bitcoin').screenshot({ path: join(ARTIFACTS, 'bitcoin-board.png') });
    expect(consoleErrors).toEqual([]);
  });
});
