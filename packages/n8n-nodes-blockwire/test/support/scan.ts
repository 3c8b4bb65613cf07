/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * n8n's verification scan, offline: `pnpm pack` the package, unpack the tarball and run the
 * scanner's `analyzePackage` on it (its CLI would download the package from the public registry).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ScanResult {
  passed: boolean;
  message?: string;
  /** ESLint's "stylish" report of every file with a violation. */
  details?: string;
}

const packageDir = join(__dirname, '..', '..');

async function analyzePackage(dir: string): Promise<ScanResult> {
  const scanner = createRequire(join(packageDir, 'package.json')).resolve(
    '@n8n/scan-community-package/scanner/scanner.mjs',
  );
  const module = (await import(pathToFileURL(scanner).href)) as {
    analyzePackage(dir: string): Promise<ScanResult>;
  };
  return await module.analyzePackage(dir);
}

export async function scanPackedPackage(dir: string): Promise<ScanResult> {
  const work = mkdtempSync(join(tmpdir(), 'blockwire-scan-'));
  try {
    execFileSync('pnpm', ['pack', '--pack-destination', work], { cwd: dir, stdio: 'ignore' });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'))!;
    execFileSync('tar', ['-xzf', tarball], { cwd: work });
    return await analyzePackage(join(work, 'package'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The scanner's report on one JavaScript file in a package of its own: to show it finds things. */
export async function analyzeSource(code: string): Promise<string | undefined> {
  const work = mkdtempSync(join(tmpdir(), 'blockwire-scan-'));
  try {
    mkdirSync(join(work, 'dist'));
    writeFileSync(join(work, 'dist', 'index.js'), code);
    return (await analyzePackage(work)).details;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The violations of a stylish report counted by rule, most frequent first. */
export function errorsByRule(details: string | undefined): [rule: string, count: number][] {
  const counts = new Map<string, number>();
  for (const line of (details ?? '').split('\n')) {
    const match = /^\s+\d+:\d+\s+error\s+.*?\s{2,}(\S+)\s*$/.exec(line);
    if (match) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}
