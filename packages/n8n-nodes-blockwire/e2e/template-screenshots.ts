/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test harness: drives a real n8n and Chromium to draw the templates; none of it ships (package.json#files is dist). */
// A screenshot of every template (templates/*.json) as n8n's editor draws it, for the README:
//
//   pnpm --filter n8n-nodes-blockwire screenshots      (builds the package first)
//
// It starts the emulator and the n8n of the e2e tests (e2e/n8n.ts) with this package's build,
// imports the templates and a credential for each one they name, sets up the owner, opens each
// workflow in Debian's Chromium (playwright-core), zooms the canvas to fit and writes
// docs/templates/<name>.png. Every file of templates/ gets one, so run it again after adding one.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '@blockwire/emulator';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '@blockwire/testing/chromium';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { credentialsFor } from './emulator-credentials.ts';
import { ensureN8n } from './install-n8n.ts';
import {
  N8nApi,
  type N8nEnvironment,
  type N8nProcess,
  prepareN8n,
  removeEnvironment,
  runN8nCli,
  startN8nServer,
  writeImportFiles,
} from './n8n.ts';
import {
  asCustomExtension,
  credentialsNamed,
  PACKAGE_DIR,
  SCREENSHOT_VIEWPORT,
  SCREENSHOTS_DIR,
  screenshotOf,
  type Template,
  templates,
} from './templates.ts';

/** Not a secret: fills the AI templates' model credential so the canvas shows no missing-credential mark. */
const PLACEHOLDER_KEY = 'placeholder-for-a-screenshot';

function workflowId(index: number): string {
  return `bwTemplate${String(index + 1).padStart(6, '0')}`;
}

/** Opens the workflow in the editor, zooms to fit and saves the canvas. */
async function screenshot(page: Page, url: string, id: string, template: Template, file: string) {
  await page.goto(`${url}/workflow/${id}`);
  const nodes = page.locator('[data-test-id="canvas-node"]');
  await nodes.first().waitFor({ timeout: 60_000 });
  const count = template.workflow.nodes.length;
  await page.waitForFunction(
    (expected) => document.querySelectorAll('[data-test-id="canvas-node"]').length >= expected,
    count,
  );
  await page.locator('[data-test-id="zoom-to-fit"]').click();
  // Zoom to fit animates (n8n's canvas eases it over a few hundred ms).
  await page.waitForTimeout(1500);
  await page.mouse.move(0, 0);
  await page.locator('[data-test-id="canvas"]').screenshot({ path: file });
}

async function main(): Promise<void> {
  const all = templates();
  const install = await ensureN8n();
  await ensureChromium();
  const emulator = await startEmulator({ anvil: false });
  let environment: N8nEnvironment | undefined;
  let server: N8nProcess | undefined;
  let browser: BrowserContext | undefined;
  try {
    environment = await prepareN8n({ packageDir: PACKAGE_DIR });
    const files = writeImportFiles(environment, {
      credentials: credentialsNamed(all).map((ref) => ({
        ...ref,
        data: ref.type === 'blockwireApi' ? { ...credentialsFor(emulator) } : { apiKey: PLACEHOLDER_KEY },
      })),
      workflows: all.map((template, index) => asCustomExtension(template, workflowId(index))),
    });
    for (const args of [
      ['import:credentials', `--input=${files.credentials}`],
      ['import:workflow', '--separate', `--input=${files.workflows}`],
    ]) {
      const result = await runN8nCli(install, environment, args);
      if (result.code !== 0)
        throw new Error(`n8n ${args[0]} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    }
    server = await startN8nServer(install, environment);
    const api = new N8nApi(server.url);
    await api.setUp();
    // A persistent context is how playwright takes a --user-data-dir: a fresh one, in n8n's temporary folder.
    browser = await chromium.launchPersistentContext(join(environment.root, 'chromium'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: SCREENSHOT_VIEWPORT,
      deviceScaleFactor: 1,
    });
    const context = browser;
    const [name, value] = api.sessionCookie().split('=');
    await context.addCookies([{ name: name!, value: value!, url: server.url }]);
    const page = context.pages()[0] ?? (await context.newPage());
    mkdirSync(join(PACKAGE_DIR, SCREENSHOTS_DIR), { recursive: true });
    for (const [index, template] of all.entries()) {
      const file = join(PACKAGE_DIR, screenshotOf(template));
      await screenshot(page, server.url, workflowId(index), template, file);
      process.stdout.write(`${screenshotOf(template)}: ${Math.round(statSync(file).size / 1024)} kB\n`);
    }
  } finally {
    await browser?.close();
    await server?.stop();
    await emulator.close();
    removeEnvironment(environment);
  }
}

await main();
