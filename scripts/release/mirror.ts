/**
 * Publishes the third-party packages our packages depend on (and the tools the consumers use)
 * into the private registry, from the copies already installed in the workspace, so fresh
 * consumer projects install from that registry alone and nothing asks the public one.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The installed folder of `name` as seen from `fromDir` (Node's lookup: each node_modules up the tree). */
export function findInstalled(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Every installed package reachable through `dependencies` and `optionalDependencies` from the
 * given roots, skipping workspace packages (`workspace:` ranges, published by the release itself)
 * and optional ones not installed on this platform.
 */
export function dependencyClosure(roots: { dir: string; manifest: Manifest }[]): Map<string, string> {
  const found = new Map<string, string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const { dir, manifest } = queue.pop()!;
    const wanted = { ...manifest.optionalDependencies, ...manifest.dependencies };
    for (const [name, range] of Object.entries(wanted)) {
      if (range.startsWith('workspace:')) continue;
      const installed = findInstalled(name, dir);
      if (!installed) {
        if (manifest.optionalDependencies?.[name]) continue;
        throw new Error(`${manifest.name} needs ${name}, which is not installed`);
      }
      const child = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
      const key = `${child.name}@${child.version}`;
      if (found.has(key)) continue;
      found.set(key, installed);
      queue.push({ dir: installed, manifest: child });
    }
  }
  return found;
}

/**
 * Publishes an installed package to the registry as it was published. Its
 * `publishConfig` (a registry of its own, provenance) and scripts are dropped first: they would
 * send it elsewhere or run code.
 */
export async function republish(installedDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'blockwire-mirror-'));
  try {
    const folder = join(work, 'package');
    // A plain copy of what was installed, which is what was published.
    cpSync(installedDir, folder, { recursive: true, dereference: true });
    const manifestFile = join(folder, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    delete manifest.publishConfig;
    delete manifest.scripts;
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    const tag = /-/.test(manifest.version) ? ['--tag', 'prerelease'] : [];
    await promisify(execFile)('npm', ['publish', folder, '--ignore-scripts', '--provenance=false', ...tag], {
      cwd: work,
      env,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
