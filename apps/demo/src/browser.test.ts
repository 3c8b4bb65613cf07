/**
 * The demo in a real headless Chromium (Debian's, driven by playwright-core), against the
 * emulator: a token price, an entity, a Bitcoin transaction sent and mined through the page's
 * buttons until its row is confirmed, and an EVM test transaction shown in the latest block.
 * Screenshots go to apps/demo/test-artifacts/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@blockwire/emulator';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '@blockwire/testing/chromium';
import { skipped } from '@blockwire/testing/skips';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from './demo.js';

export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

/**
 * Every visible text whose colour is under 4.5:1 against its background (WCAG AA), run in the page.
 * The background is the first opaque one behind the text; text over an image or gradient (the
 * avatars' initials) and disabled controls (exempt in WCAG) are not measured.
 */
function lowContrastTexts(): string[] {
  const rgba = (css: string) => {
    const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
    return { r, g, b, a: css.startsWith('rgba') ? a : 1 };
  };
  const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
    const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const backgroundOf = (element: Element | null): { r: number; g: number; b: number } | undefined => {
    for (let at = element; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.backgroundImage !== 'none') return undefined;
      const colour = rgba(style.backgroundColor);
      if (colour.a === 1) return colour;
    }
    return { r: 255, g: 255, b: 255 };
  };
  const failures: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || !node.textContent?.trim() || !element.checkVisibility()) continue;
    if (element.closest(':disabled')) continue;
    const background = backgroundOf(element);
    if (!background) continue;
    const style = getComputedStyle(element);
    const fg = rgba(style.color);
    const shown = {
      r: fg.r * fg.a + background.r * (1 - fg.a),
      g: fg.g * fg.a + background.g * (1 - fg.a),
      b: fg.b * fg.a + background.b * (1 - fg.a),
    };
    const [light, dark] = [luminance(shown), luminance(background)].sort((x, y) => y - x) as [number, number];
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ratio < 4.5) {
      failures.push(
        `${ratio.toFixed(2)}:1 ${style.color} on ${JSON.stringify(background)}: "${node.textContent.trim().slice(0, 40)}"`,
      );
    }
  }
  return failures;
}

describe.skipIf(skipped('chromium'))('the demo page in Chromium, on the emulator', () => {
  let demo: Demo;
  let browser: BrowserContext;
  let page: Page;
  let dataDir: string;
  let profileDir: string;
  const consoleErrors: string[] = [];
  /** The path of every API request the page made, in order. */
  const apiRequests: string[] = [];
  /** The API requests made while `action` ran. */
  const requestsDuring = async (action: () => Promise<void>): Promise<string[]> => {
    const before = apiRequests.length;
    await action();
    return apiRequests.slice(before);
  };

  beforeAll(async () => {
    await ensureChromium();
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
    // Every error counts, a 4xx answer too: the page catches ordinary input mistakes before any request.
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/'))
        apiRequests.push(new URL(request.url()).pathname);
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

  it('shows a bad address as a sentence and marks the field, without asking the server', async () => {
    const panel = page.locator('#price');
    const input = panel.locator('input[name="address"]');
    const sent = await requestsDuring(async () => {
      await input.fill('0x1234');
      await panel.getByRole('button', { name: 'Get price' }).click();
      await panel.locator('.error').waitFor();
    });
    expect(sent).toEqual([]);
    // The sentence the server gives for the same input (server.test.ts), found by the SDK's own schema.
    await expect(panel.locator('.error').textContent()).resolves.toBe(
      'The address must be a 0x-prefixed address of 40 hex digits.',
    );
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
    const described = await input.getAttribute('aria-describedby');
    await expect(page.locator(`#${described}`).textContent()).resolves.toBe(
      'The address must be a 0x-prefixed address of 40 hex digits.',
    );
  });

  it('unmarks a corrected field as soon as it is valid, before the form is sent again', async () => {
    const panel = page.locator('#price');
    const input = panel.locator('input[name="address"]');
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
    // Still wrong while typing: still marked (and red, once the focus ring is gone).
    await input.fill('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756C');
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
    const borderOf = (locator: typeof input) =>
      locator.evaluate((element) => getComputedStyle(element).borderColor);
    await input.blur();
    const untouched = await borderOf(panel.locator('input[name="toBlock"]'));
    await expect.poll(() => borderOf(input)).toBe('rgb(185, 28, 28)'); // --down of styles.css
    await input.focus();
    await input.press('End');
    await input.pressSequentially('c2');
    await expect(input.getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(input.getAttribute('aria-describedby')).resolves.toBeNull();
    await expect(panel.locator('.error').count()).resolves.toBe(0);
    await input.blur();
    // The border eases back (a CSS transition) to the colour of a field never marked.
    await expect.poll(() => borderOf(input)).toBe(untouched);
  });

  it('catches an ordinary mistake in every form in the page, with no request and no console error', async () => {
    const mistakes: Array<{ panel: string; fill: [string, string][]; submit: string; says: RegExp }> = [
      {
        panel: '#price',
        fill: [['toBlock', '12a']],
        submit: 'Get price',
        says: /^The block number must be a whole number/,
      },
      {
        panel: '#entities',
        fill: [['query', '   ']],
        submit: 'Search',
        says: /^The search text is required\.$/,
      },
      {
        panel: '#solana',
        fill: [['addresses', 'not-a-mint']],
        submit: 'Get prices',
        says: /^Address 1 of the list/,
      },
      { panel: '#bitcoin', fill: [['address', 'bc1qnotanaddress']], submit: 'Watch', says: /^The address / },
      {
        panel: '#bitcoin',
        fill: [['amountBtc', '0.123456789']],
        submit: 'Send transaction',
        says: /^The amount must be an amount of BTC/,
      },
      {
        panel: '#blocks',
        fill: [['number', '-1']],
        submit: 'Show',
        says: /^The block number must be a whole number/,
      },
    ];
    for (const { panel, fill, submit, says } of mistakes) {
      const root = page.locator(panel);
      const sent = await requestsDuring(async () => {
        for (const [name, value] of fill) await root.locator(`[name="${name}"]`).first().fill(value);
        await root.getByRole('button', { name: submit, exact: true }).click();
        await root.locator('.error').waitFor();
      });
      expect(sent, `${panel} ${submit}`).toEqual([]);
      await expect(root.locator('.error').textContent(), `${panel} ${submit}`).resolves.toMatch(says);
      const [name] = fill[0]!;
      await expect(root.locator(`[name="${name}"]`).first().getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
    }
    // Put right again for the tests below.
    await page.locator('#price [name="toBlock"]').fill('');
    await page.locator('#bitcoin [name="address"]').fill('');
    await page.locator('#bitcoin [name="amountBtc"]').fill('0.125');
    await page.locator('#blocks [name="number"]').fill('');
    await expect(
      page.locator('#bitcoin [name="amountBtc"]').getAttribute('aria-invalid'),
    ).resolves.toBeNull();
    expect(consoleErrors).toEqual([]);
  });

  it('names each example button as it is read out: "USDC on eth", not "USDCeth"', async () => {
    const names = await page
      .locator('#price [data-role="examples"] button')
      .evaluateAll((buttons) =>
        buttons.map((button) => button.getAttribute('aria-label') ?? button.textContent),
      );
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect(name).toMatch(/^\S+ on [a-z0-9-]+$/);
    await expect(page.getByRole('button', { name: 'USDC on eth', exact: true }).count()).resolves.toBe(1);
  });

  it('shows every text in a colour of at least 4.5:1 against what is behind it (WCAG AA)', async () => {
    const failures = await page.evaluate(lowContrastTexts);
    expect(failures).toEqual([]);
  });

  it('offers no next page of a category that has none, also when the last page is full', async () => {
    const panel = page.locator('#entities');
    const sent = await requestsDuring(async () => {
      await panel
        .locator('[data-role="categories"]')
        .getByRole('button', { name: /^Exchanges/ })
        .click();
      await panel.locator('.pager').waitFor();
    });
    expect(sent).toEqual(['/api/entities/category']);
    // 12 exchanges fill the first page exactly: the server looked at the next one.
    await expect(panel.locator('.group li').count()).resolves.toBe(12);
    await expect(panel.getByRole('button', { name: 'Next →' }).isEnabled()).resolves.toBe(false);
    await expect(panel.locator('[data-role="meta"]').textContent()).resolves.toMatch(
      /^2 requests to the service/,
    );
  });

  it('says, on the emulator, that every chain of the blocks panel is one anvil chain', async () => {
    await expect(page.locator('#blocks [data-role="chains-note"]').textContent()).resolves.toMatch(
      /^On the emulator every chain here is the same local anvil chain/,
    );
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

  it('drops the rows the stream stops following when "every transaction" is turned off', async () => {
    const panel = page.locator('#bitcoin');
    const watchedRows = await panel.locator('tr.watched').count();
    expect(watchedRows).toBeGreaterThan(0);
    await expect(panel.locator('tr .badge.coinbase').count()).resolves.toBeGreaterThan(0);
    await panel.locator('[data-role="all-addresses"]').uncheck();
    await panel.locator('.message.ok', { hasText: 'watched addresses only' }).waitFor();
    // A coinbase pays no watched address: no delivery would ever confirm it now.
    await expect.poll(() => panel.locator('tr .badge.coinbase').count()).toBe(0);
    await expect(panel.locator('tbody tr:not(.watched)').count()).resolves.toBe(0);
    await expect(panel.locator('tr.watched').count()).resolves.toBe(watchedRows);
    // Still so after a reload: the server's board follows the same rule.
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    await panel.locator('[data-role="live"][data-state="live"]').waitFor();
    await expect.poll(() => panel.locator('tr.watched').count()).toBe(watchedRows);
    await expect(panel.locator('tbody tr:not(.watched)').count()).resolves.toBe(0);
  });

  it('says "Already watching" for an address the stream watches, and asks nothing', async () => {
    const panel = page.locator('#bitcoin');
    const input = panel.locator('[data-role="watch"] input[name="address"]');
    const sent = await requestsDuring(async () => {
      // The BIP84 test wallet's first address, watched from the start, typed in capitals.
      await input.fill('BC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU');
      await panel.getByRole('button', { name: 'Watch', exact: true }).click();
      await panel.locator('.message.ok', { hasText: 'Already watching' }).waitFor();
    });
    expect(sent).toEqual([]);
    await expect(panel.locator('.message').textContent()).resolves.toBe(
      'Already watching BC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU.',
    );
    const added = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
    await input.fill(added);
    await panel.getByRole('button', { name: 'Watch', exact: true }).click();
    await panel.locator('.message.ok', { hasText: 'Now watching' }).waitFor();
    await expect(panel.locator('[data-role="watched"] option', { hasText: added }).count()).resolves.toBe(1);
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

  it('hides the simulator and watch forms in service mode with the board off', async () => {
    const emulator = await startEmulator({ anvil: false });
    const serviceDemo = await startDemo({
      backend: { mode: 'service', apiKey: emulator.apiKey, baseUrls: emulator.urls, webhook: undefined },
      port: 0,
      dataDir,
      log: () => {},
    });
    const servicePage = await browser.newPage();
    try {
      await servicePage.goto(serviceDemo.url);
      await servicePage.locator('body[data-ready="true"]').waitFor();
      const panel = servicePage.locator('#bitcoin');
      await expect(panel.locator('[data-role="status"]').textContent()).resolves.toMatch(
        /cannot deliver webhooks to 127\.0\.0\.1/,
      );
      for (const form of ['simulator', 'watch']) {
        await expect(panel.locator(`[data-role="${form}"]`).isVisible(), form).resolves.toBe(false);
      }
      await expect(panel.getByRole('button', { name: 'Send transaction' }).isVisible()).resolves.toBe(false);
    } finally {
      await servicePage.close();
      await serviceDemo.close();
      await emulator.close();
    }
  });

  it('confirms a payment mined before a restart of the demo with the blocks mined after it', async () => {
    const panel = page.locator('#bitcoin');
    const sent = page.waitForResponse((response) => response.url().endsWith('/api/bitcoin/send'));
    await panel.getByRole('button', { name: 'Send transaction' }).click();
    const { txid } = (await (await sent).json()) as { txid: string };
    await panel.locator(`tr[data-txid="${txid}"][data-stage="mempool"]`).waitFor();
    const mine = panel.getByRole('button', { name: 'Mine a block' });
    await mine.click();
    await panel.locator(`tr[data-txid="${txid}"][data-stage="in-block"]`).waitFor();
    const row = panel.locator(`tr[data-txid="${txid}"]`);
    const height = Number((await row.locator('td.num').first().textContent())?.replace(/\D/g, ''));

    await demo.close();
    // A new start takes a fresh seed, as `npm run demo` does.
    demo = await startDemo({ backend: { mode: 'emulator' }, port: 0, dataDir, seed: 2, log: () => {} });
    await page.goto(demo.url);
    await page.locator('body[data-ready="true"]').waitFor();
    await panel.locator('[data-role="live"][data-state="live"]').waitFor();
    await panel.locator(`tr[data-txid="${txid}"][data-stage="in-block"]`).waitFor();
    for (let block = 0; block < 2; block++) {
      await mine.click();
      await expect.poll(() => mine.isEnabled()).toBe(true);
    }
    await panel.locator(`tr[data-txid="${txid}"][data-stage="confirmed"]`).waitFor({ timeout: 20_000 });
    await expect(panel.locator('.message.ok').textContent()).resolves.toBe(
      `Mined block ${grouped(height + 2)}.`,
    );
  });
});

/** 885234 → "885 234", as the page groups digits. */
const grouped = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
