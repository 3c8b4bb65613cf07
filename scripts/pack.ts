/**
 * The workspace's published packages and their tarballs as `pnpm pack` makes them (what
 * `changeset publish` uploads: `workspace:` ranges rewritten). Used by the packaging checks and
 * the consumer projects (scripts/consumers), which install these tarballs as a user installs a release.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const root = join(import.meta.dirname, '..');

export interface WorkspacePackage {
  dir: string;
  manifest: {
    name: string;
    version: string;
    private?: boolean;
    dependencies?: Record<string, string>;
    // biome-ignore lint/suspicious/noExplicitAny: the other fields are whatever the package.json holds
    [field: string]: any;
  };
}

/** Every package of the workspace (packages/*, apps/*, bench), private ones included. */
export function workspacePackages(): WorkspacePackage[] {
  return ['packages', 'bench', 'apps']
    .flatMap((folder) => {
      const dir = join(root, folder);
      if (existsSync(join(dir, 'package.json'))) return [dir];
      return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
    })
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
}

/** The packages a release publishes. */
export function publishedPackages(): WorkspacePackage[] {
  return workspacePackages().filter(({ manifest }) => !manifest.private);
}

/**
 * `pnpm pack` of the package in `dir` into `destination`: the tarball's path. Asynchronous, so a
 * test worker keeps answering vitest while it runs.
 */
export async function packPackage(dir: string, destination: string): Promise<string> {
  mkdirSync(destination, { recursive: true });
  const { stdout } = await promisify(execFile)(
    'pnpm',
    ['pack', '--json', '--pack-destination', destination],
    { cwd: dir, encoding: 'utf8' },
  );
  return (JSON.parse(stdout.slice(stdout.indexOf('{'))) as { filename: string }).filename;
}
