/**
 * Packaging checks for every published package, on the tarball `pnpm pack` makes (what
 * `changeset publish` uploads: `workspace:` ranges rewritten): its manifest, its files, publint,
 * Are The Types Wrong, a real `require()` and `import()` by name, and a TypeScript consumer
 * without `@types/node`.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackage, publishedPackages, root, workspacePackages } from './pack.js';

const workspace = workspacePackages();
const packages = publishedPackages()
  // n8n community node packages are not libraries (no entry point, loaded by n8n from the paths in
  // their `n8n` field): packages/n8n-nodes-blockwire/test/package.test.ts checks them.
  .filter(({ manifest }) => manifest.n8n === undefined);
const privateNames = workspace
  .filter(({ manifest }) => manifest.private)
  .map(({ manifest }) => manifest.name);

// Long commands (attw, tsc) run asynchronously: a worker blocked for tens of seconds on a busy
// machine misses vitest's RPC deadline and fails the whole run.
const execFileAsync = promisify(execFile);

const packDir = mkdtempSync(join(tmpdir(), 'blockwire-pack-'));
afterAll(() => rmSync(packDir, { recursive: true, force: true }));

const packed = new Map<string, Promise<{ tarball: string; unpacked: string }>>();

/** `pnpm pack` of a package (once), unpacked: the tarball and its `package/` folder. */
function pack(dir: string): Promise<{ tarball: string; unpacked: string }> {
  const done = packed.get(dir);
  if (done) return done;
  const destination = join(packDir, dir.split('/').pop()!);
  const result = packPackage(dir, destination).then(async (tarball) => {
    await execFileAsync('tar', ['-xzf', tarball, '-C', destination]);
    return { tarball, unpacked: join(destination, 'package') };
  });
  packed.set(dir, result);
  return result;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A test, a test helper or the private test package, by file or module name. */
const TEST_CODE =
  /(\.test\.[cm]?[jt]sx?$|test-support|__fixtures__|@blockwire\/testing|node_modules\/vitest)/;

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

describe.each(packages)('package $manifest.name', ({ dir, manifest }) => {
  let tarball: string;
  let unpacked: string;
  beforeAll(async () => {
    ({ tarball, unpacked } = await pack(dir));
  }, 60_000);

  it('has the fields a published package needs', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.engines?.node).toBe('>=22.19');
    expect(manifest.repository?.directory).toBe(`packages/${dir.split('/').pop()}`);
    expect(manifest.files).toContain('dist');
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
  });

  it('packs every entry of `files`, and each exists', () => {
    for (const entry of manifest.files as string[]) {
      expect(existsSync(join(dir, entry)), `${entry} is listed in files`).toBe(true);
      expect(existsSync(join(unpacked, entry)), `${entry} is in the tarball`).toBe(true);
    }
  });

  it('publishes a manifest without workspace ranges or private packages', () => {
    const published = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    for (const field of DEPENDENCY_FIELDS) {
      for (const [name, range] of Object.entries<string>(published[field] ?? {})) {
        expect(range, `${field}.${name}`).not.toMatch(/^workspace:/);
        expect(privateNames, `${field}.${name} is a private package, never published`).not.toContain(name);
      }
    }
  });

  it('ships no test code: no test or test-support file, and no built file made from one', () => {
    const shipped = filesUnder(unpacked);
    expect(shipped.map((file) => file.slice(unpacked.length)).filter((file) => TEST_CODE.test(file))).toEqual(
      [],
    );
    for (const map of shipped.filter((file) => file.endsWith('.map'))) {
      const { sources = [] } = JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[] };
      expect(
        sources.filter((source) => TEST_CODE.test(source)),
        map.slice(unpacked.length),
      ).toEqual([]);
    }
  });

  it('ships no path of the build machine: every source map names its files relative to itself', () => {
    for (const map of filesUnder(unpacked).filter((file) => file.endsWith('.map'))) {
      const { file, sources = [] } = JSON.parse(readFileSync(map, 'utf8')) as {
        file?: string;
        sources?: string[];
      };
      const absolute = [file, ...sources].filter((name) => typeof name === 'string' && isAbsolute(name));
      expect(absolute, map.slice(unpacked.length)).toEqual([]);
    }
  });

  it('ends every built file with one source map comment', () => {
    const built = filesUnder(join(unpacked, 'dist')).filter((file) => /\.(c|m)?js$/.test(file));
    expect(built.length).toBeGreaterThan(0);
    for (const file of built) {
      const comments = readFileSync(file, 'utf8').match(/\/\/# sourceMappingURL=\S*$/gm) ?? [];
      expect(comments, file.slice(unpacked.length)).toHaveLength(1);
    }
  });

  it('passes publint', async () => {
    const { messages } = await publint({ pkgDir: dir, strict: true, level: 'warning', pack: 'npm' });
    expect(messages.map((m) => `${m.type} ${m.code} ${JSON.stringify(m.args)}`)).toEqual([]);
  });

  it('passes Are The Types Wrong', async () => {
    const attw = join(root, 'node_modules', '.bin', 'attw');
    let output: string;
    try {
      ({ stdout: output } = await execFileAsync(attw, [tarball, '--format', 'json'], { encoding: 'utf8' }));
    } catch (error) {
      output = (error as { stdout?: string }).stdout ?? String(error);
    }
    const report = JSON.parse(output.slice(output.indexOf('{')));
    expect(report.analysis?.problems ?? report).toEqual([]);
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

  it('leaves no bare import.meta in its CommonJS build (it is undefined there: the emulator could not find anvil)', () => {
    for (const file of readdirSync(join(dir, 'dist')).filter((name) => name.endsWith('.cjs'))) {
      const code = readFileSync(join(dir, 'dist', file), 'utf8');
      expect(code, file).not.toMatch(/\bimport_meta\.url\b|\bimport\.meta\b/);
    }
  });
});

describe('a TypeScript consumer without @types/node', () => {
  // Not a Node project (a worker, Deno, a browser bundle): TypeScript's default libraries, no
  // @types/node anywhere, strict, and the packages' own .d.ts files checked too.
  const libraries = packages.filter(({ manifest }) => manifest.name !== '@blockwire/emulator');

  it('compiles against the types of every library package and entry point', async () => {
    const project = mkdtempSync(join(tmpdir(), 'blockwire-consumer-'));
    try {
      const modules = join(project, 'node_modules');
      const imports: string[] = [];
      const externals = new Set<string>();
      for (const { dir, manifest } of libraries) {
        const { unpacked } = await pack(dir);
        const target = join(modules, manifest.name);
        mkdirSync(dirname(target), { recursive: true });
        // A copy, not a link: TypeScript resolves a link to its real folder, outside this project.
        cpSync(unpacked, target, { recursive: true });
        // A peer dependency is installed beside the package, as its users must.
        for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
          // Installed as the package's own dependencies are: the same folders, found through its node_modules.
          if (!name.startsWith('@blockwire/'))
            externals.add(`${name}\0${realpathSync(join(dir, 'node_modules', name))}`);
        }
        for (const entry of Object.keys(manifest.exports as Record<string, unknown>)) {
          if (entry === './package.json') continue;
          const specifier = `${manifest.name}${entry.slice(1)}`;
          imports.push(`export * as m${imports.length} from '${specifier}';`);
        }
      }
      for (const external of externals) {
        const [name, folder] = external.split('\0') as [string, string];
        mkdirSync(dirname(join(modules, name)), { recursive: true });
        if (!existsSync(join(modules, name))) symlinkSync(folder, join(modules, name), 'dir');
      }
      writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
      writeFileSync(join(project, 'index.ts'), `${imports.join('\n')}\n`);
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false },
          files: ['index.ts'],
        }),
      );
      let output = '';
      try {
        await execFileAsync(
          process.execPath,
          [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project],
          {
            cwd: project,
            encoding: 'utf8',
          },
        );
      } catch (error) {
        output = (error as { stdout?: string }).stdout ?? String(error);
      }
      expect(output.split('\n').filter(Boolean)).toEqual([]);
      expect(existsSync(join(modules, '@types', 'node'))).toBe(false);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});
