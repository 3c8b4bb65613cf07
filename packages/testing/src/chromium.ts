/**
 * Debian's Chromium for browser tests (the demo's, the strict-CSP consumer page's), driven by
 * playwright-core: nothing may download a browser of its own.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

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

/** Installs Debian's chromium when it is missing (as root; otherwise says how). */
export async function ensureChromium(): Promise<void> {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM} is missing: install it with "apt-get update && apt-get install -y chromium" (as root).`,
    );
  }
  // Not execFileSync: a worker blocked for a whole install misses vitest's RPC deadline.
  const apt = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 };
  await promisify(execFile)('apt-get', ['update'], apt);
  await promisify(execFile)('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], apt);
}
