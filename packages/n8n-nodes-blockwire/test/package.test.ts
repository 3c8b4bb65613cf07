/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * The published package as n8n sees it: what the tarball holds, and every node and credential file
 * loading with require() the way n8n loads community nodes — n8n-workflow and zod (3.25, through
 * its `zod/v4` entry) from the host's module path, nothing else.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';

const packageDir = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  name: string;
  keywords: string[];
  license: string;
  files: string[];
  dependencies?: object;
  peerDependencies: Record<string, string>;
  n8n: { n8nNodesApiVersion: number; strict: boolean; nodes: string[]; credentials: string[] };
};
const n8nFiles = [...manifest.n8n.credentials, ...manifest.n8n.nodes];

describe('n8n-nodes-blockwire as published', () => {
  it('declares itself a community node package with no runtime dependencies', () => {
    expect(manifest.name).toBe('n8n-nodes-blockwire');
    expect(manifest.keywords).toContain('n8n-community-node-package');
    expect(manifest.license).toBe('MIT');
    expect(manifest.files).toEqual(['dist']);
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
    expect(manifest.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
    expect(n8nFiles.every((file) => file.startsWith('dist/'))).toBe(true);
  });

  it('packs the built nodes, credentials, icons and codex files, and nothing from the sources or tests', () => {
    const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: packageDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [packed] = JSON.parse(output.slice(output.indexOf('['))) as [{ files: { path: string }[] }];
    const paths = packed.files.map((file) => file.path).sort();
    for (const file of n8nFiles) expect(paths).toContain(file);
    expect(paths).toContain('dist/icons/blockwire.svg');
    expect(paths).toContain('dist/icons/blockwire.dark.svg');
    for (const node of manifest.n8n.nodes) expect(paths).toContain(node.replace(/\.js$/, '.json'));
    expect(paths.filter((path) => !path.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    expect(paths.some((path) => /\.test\.|\.ts$|\.map$/.test(path))).toBe(false);
  });

  it('every node and credential loads with require(), on the host’s n8n-workflow and zod 3.25', () => {
    // n8n puts its own node_modules on the module path of community nodes: here, the folder that
    // holds n8n-workflow and the zod 3.25.76 it pins.
    const hostModules = dirname(
      dirname(
        realpathSync(createRequire(join(packageDir, 'package.json')).resolve('n8n-workflow/package.json')),
      ),
    );
    // A copy outside the repository, as installed: nothing on the way up may supply a zod (the
    // workspace's zod 4 would hide what n8n's zod 3.25 does).
    const installed = mkdtempSync(join(tmpdir(), 'n8n-nodes-blockwire-'));
    cpSync(join(packageDir, 'dist'), join(installed, 'dist'), { recursive: true });
    cpSync(join(packageDir, 'package.json'), join(installed, 'package.json'));
    const script = `
      const path = require('node:path');
      const out = [];
      for (const file of ${JSON.stringify(n8nFiles)}) {
        const exported = require(path.join(${JSON.stringify(installed)}, file));
        const className = path.basename(file).split('.')[0];
        const instance = new exported[className]();
        out.push({ file, className, name: instance.name ?? instance.description.name, properties: instance.properties ?? instance.description.properties });
      }
      out.push({ zod: require(require.resolve('zod/package.json', { paths: [${JSON.stringify(installed)}] })).version });
      process.stdout.write(JSON.stringify(out));`;
    let output: string;
    try {
      output = execFileSync(process.execPath, ['-e', script], {
        cwd: installed,
        env: { ...process.env, NODE_PATH: hostModules },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      throw new Error(`loading the nodes failed:\n${(error as { stderr?: string }).stderr ?? String(error)}`);
    } finally {
      rmSync(installed, { recursive: true, force: true });
    }
    const loaded = JSON.parse(output) as (
      | { file: string; className: string; name: string; properties: unknown }
      | { zod: string }
    )[];
    expect(loaded.at(-1)).toEqual({ zod: '3.25.76' });
    const nodes = loaded.slice(0, -1) as { file: string; name: string; properties: unknown }[];
    expect(nodes.map((entry) => [basename(entry.file), entry.name])).toEqual(
      n8nFiles.map((file) => [basename(file), expectedName(file)]),
    );
    // The parameters n8n shows, built from the SDK's metadata under zod 3.25, are the ones the
    // sources build under zod 4.
    const action = nodes.find((entry) => entry.name === 'blockwire');
    expect(action?.properties).toEqual(JSON.parse(JSON.stringify(new Blockwire().description.properties)));
  });
});

function expectedName(file: string): string {
  const className = basename(file).split('.')[0]!;
  return className.charAt(0).toLowerCase() + className.slice(1);
}
