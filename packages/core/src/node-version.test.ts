import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findOldNode } from '@blockwire/testing';
import { describe, expect, it } from 'vitest';
import { unsupportedNodeMessage } from './node-version.js';

describe('unsupportedNodeMessage', () => {
  it.each([
    ['20.20.2', '>=22.19', 'Blockwire needs Node.js 22.19 or newer; this is Node.js 20.20.2'],
    ['22.18.9', '>=22.19', 'Blockwire needs Node.js 22.19 or newer; this is Node.js 22.18.9'],
    ['v18.0.0', '>= 22.19.1', 'Blockwire needs Node.js 22.19.1 or newer; this is Node.js 18.0.0'],
    ['22.19.0', '>=22.19.1', 'Blockwire needs Node.js 22.19.1 or newer; this is Node.js 22.19.0'],
  ])('says Node %s is too old for %s, in one sentence', (running, required, sentence) => {
    expect(unsupportedNodeMessage(running, required)).toBe(`${sentence} (${process.execPath}).`);
  });

  it.each([
    ['22.19.0', '>=22.19'],
    ['22.20.0', '>=22.19'],
    ['23.0.0', '>=22.19'],
    ['24.21.0', '>=22.19'],
    ['20.0.0', ''],
    ['20.0.0', '^22'],
  ])('lets Node %s run under %j', (running, required) => {
    expect(unsupportedNodeMessage(running, required)).toBeUndefined();
  });
});

const packagesDir = join(import.meta.dirname, '..', '..');

/** Every published package's folder and package.json. */
function publishedPackages(): { dir: string; manifest: Record<string, unknown> }[] {
  return (
    readdirSync(packagesDir)
      .map((folder) => join(packagesDir, folder))
      .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
      // The n8n nodes run inside n8n, which brings its own Node (24); they have no exports map.
      .filter(({ manifest }) => !manifest.private && manifest.exports)
  );
}

/** Every published package's built entries, ESM and CommonJS, from its exports map. */
function builtEntries(): { name: string; file: string; format: 'esm' | 'cjs' }[] {
  return publishedPackages().flatMap(({ dir, manifest }) => {
    return (
      Object.entries(
        manifest.exports as Record<string, { import?: { default: string }; require?: { default: string } }>,
      )
        // node-version is the side-effect-free check itself: a CLI imports it to decide what to say.
        .filter(([subpath]) => subpath !== './package.json' && subpath !== './node-version')
        .flatMap(([subpath, conditions]) =>
          [
            ...(conditions.import ? [{ format: 'esm' as const, entry: conditions.import.default }] : []),
            ...(conditions.require ? [{ format: 'cjs' as const, entry: conditions.require.default }] : []),
          ].map(({ format, entry }) => ({
            name: `${manifest.name}${subpath.slice(1)} (${format})`,
            file: join(dir, entry),
            format,
          })),
        )
    );
  });
}

const oldNode = findOldNode();

describe.skipIf(!oldNode)(`on an older Node.js (${oldNode?.path} ${oldNode?.version})`, () => {
  // An entry loads without undici (nothing runs at import: "sideEffects": false), or says so in one
  // sentence; `createClient` is where the sentence comes from, before anything loads undici.
  it.each(builtEntries().map((entry) => [entry.name, entry]))(
    '%s loads, or fails at import with one sentence saying which Node is needed and which ran',
    (_name, { file, format }) => {
      const load = format === 'esm' ? `import(${JSON.stringify(file)})` : `require(${JSON.stringify(file)})`;
      const run = spawnSync(oldNode!.path, ['-e', load], { encoding: 'utf8' });
      expect(run.stderr).not.toContain("reading 'bind'");
      if (run.status === 0) {
        expect(run.stderr).toBe('');
        return;
      }
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `Error: Blockwire needs Node.js 22.19 or newer; this is Node.js ${oldNode!.version} (${oldNode!.path}).`,
      );
      expect(run.stderr).not.toContain("reading 'bind'");
    },
  );

  it.each(
    builtEntries()
      .filter((entry) => /^@blockwire\/core /.test(entry.name))
      .map((entry) => [entry.name, entry]),
  )(
    '%s: createClient says which Node is needed and which ran, in one sentence',
    (_name, { file, format }) => {
      const module =
        format === 'esm' ? `await import(${JSON.stringify(file)})` : `require(${JSON.stringify(file)})`;
      const script = `(async () => { const { createClient } = ${module}; try { createClient({ apiKey: 'k' }); } catch (error) { process.stderr.write(error.message); process.exit(1); } })()`;
      const run = spawnSync(oldNode!.path, ['-e', script], { encoding: 'utf8' });
      expect(run.stderr).toBe(
        `Blockwire needs Node.js 22.19 or newer; this is Node.js ${oldNode!.version} (${oldNode!.path}).`,
      );
      expect(run.status).toBe(1);
    },
  );

  const clis = publishedPackages().flatMap(({ dir, manifest }) =>
    Object.entries((manifest.bin ?? {}) as Record<string, string>).map(([name, file]) => [
      name,
      join(dir, file),
    ]),
  );
  it.each(clis)('the %s CLI says so in one line at start, and exits 1', (name, file) => {
    const run = spawnSync(oldNode!.path, [file!, '--help'], { encoding: 'utf8' });
    expect(run.stderr).toBe(
      `${name}: Blockwire needs Node.js 22.19 or newer; this is Node.js ${oldNode!.version} (${oldNode!.path}).\n`,
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
  });
});
