/**
 * Debian's Chromium for browser tests (the demo's, the strict-CSP consumer page's), driven by
 * playwright-core: nothing may download a browser of its own.
 */
import { existsSync } from 'node:fs';
import { ensureDebianPackage } from './services.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Debian's chromium when it is missing: the same install as PostgreSQL's and Redis's, which says what it does and what to do when it cannot. */
export async function ensureChromium(): Promise<void> {
  await ensureDebianPackage('chromium', () => existsSync(CHROMIUM));
}
