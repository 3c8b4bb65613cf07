/**
 * Packaging checks for every published package: publint, Are The Types Wrong, and a real
 * `require()` and `import()` of the built package by its name.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages'))
  .map((folder) => join(root, 'packages', folder))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);

describe.each(packages)('package $manifest.name', ({ dir, manifest }) => {
  it('has the fields a published package needs', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.engines?.node).toBe('>=22.19');
    expect(manifest.repository?.directory).toBe(`packages/${dir.split('/').pop()}`);
    expect(manifest.files).toContain('dist');
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
  });

  it('passes publint', async () => {
    const { messages } = await publint({ pkgDir: dir, strict: true, level: 'warning', pack: 'npm' });
    expect(messages.map((m) => `${m.type} ${m.code} ${JSON.stringify(m.args)}`)).toEqual([]);
  });

  it('passes Are The Types Wrong', () => {
    // Pack into a folder of our own: `attw --pack` writes its tarball into the package folder.
    const packDir = mkdtempSync(join(tmpdir(), 'blockwire-attw-'));
    try {
      const packed = JSON.parse(
        execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], {
          cwd: dir,
          encoding: 'utf8',
          stdio: 'pipe',
        }),
      ) as { filename: string }[];
      const tarball = join(packDir, packed[0]!.filename);
      const attw = join(root, 'node_modules', '.bin', 'attw');
      let output: string;
      try {
        output = execFileSync(attw, [tarball, '--format', 'json'], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = (error as { stdout?: string }).stdout ?? String(error);
      }
      const report = JSON.parse(output.slice(output.indexOf('{')));
      expect(report.analysis?.problems ?? report).toEqual([]);
    } finally {
      rmSync(packDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("keeps zod's internal types out of its .d.ts (they differ between zod 3.25's zod/v4 and zod 4)", () => {
    // A schema factory without a declared return type makes tsup inline zod internals (`_zod`,
    // `z.core.$ZodLooseShape`), which do not compile against n8n's zod 3.25.
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const path = join(dir, 'dist', file);
      if (existsSync(path)) expect(readFileSync(path, 'utf8')).not.toMatch(/\b_zod\b/);
    }
  });

  it('loads with require() and import(), with the same exports', () => {
    const script = `
      const cjs = require(${JSON.stringify(manifest.name)});
      import(${JSON.stringify(manifest.name)}).then((esm) => {
        const names = (m) => Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort();
        process.stdout.write(JSON.stringify({ cjs: names(cjs), esm: names(esm) }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }));
    expect(out.cjs.length).toBeGreaterThan(0);
    expect(out.esm).toEqual(out.cjs);
  });
});
