/**
 * `"sideEffects": false` is a promise to bundlers: an import of the package whose names go unused
 * may be dropped. It holds only if loading a module does nothing but define names. Each built
 * ESM entry (every export subpath, every condition) of every package that makes the promise is
 * bundled here with tree shaking, its own files taken as having effects (so that nothing is
 * dropped on the strength of the promise under test) and other packages left out; what the
 * bundler keeps must be declarations only: an effect at load (a call of its own, an `if`, a
 * `throw`, an assignment) is an effect a bundler may drop. A package with a command (`bin`) lists
 * the command's files instead (`"sideEffects": ["./dist/cli.js", …]`): the same promise for every
 * other file, and its command, bundled as a bundler would, keeps what it runs first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
// esbuild is tsup's: the bundler the packages are built with.
const esbuild: typeof import('esbuild') = createRequire(
  createRequire(join(root, 'package.json')).resolve('tsup'),
)('esbuild');

interface Manifest {
  name: string;
  sideEffects?: unknown;
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
}

/** Every `import` target of an exports map entry, whatever the condition. */
function esmTargets(entry: unknown, under: string | undefined = undefined): string[] {
  if (typeof entry === 'string') return under === 'require' || !entry.endsWith('.js') ? [] : [entry];
  if (typeof entry !== 'object' || entry === null) return [];
  return Object.entries(entry).flatMap(([condition, value]) =>
    condition === 'types' ? [] : esmTargets(value, condition === 'require' ? 'require' : under),
  );
}

const manifests = readdirSync(join(root, 'packages')).map((dir) => ({
  dir: join(root, 'packages', dir),
  manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
}));

/** `false`, or only the files of its command: every module it exports promises no effect. */
const promisesNoEffect = ({ sideEffects }: Manifest) => sideEffects === false || Array.isArray(sideEffects);

const promising = manifests.flatMap(({ dir, manifest }) => {
  if (!promisesNoEffect(manifest)) return [];
  const targets = Object.values(manifest.exports ?? {}).flatMap((entry) => esmTargets(entry));
  return [...new Set(targets)].map((target) => ({ name: manifest.name, dir, target }));
});

const commands = manifests.flatMap(({ dir, manifest }) =>
  Object.values(manifest.bin ?? {}).map((bin) => ({ name: manifest.name, dir, bin, manifest })),
);

/** What a bundler keeps of `file` when nothing it exports is used. */
async function keptOf(dir: string, file: string): Promise<string> {
  const result = await esbuild.build({
    stdin: { contents: `import ${JSON.stringify(file)};`, resolveDir: dir },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    treeShaking: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'own-files-have-effects',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.path.startsWith('/')) return { path: args.path, sideEffects: true };
            if (args.path.startsWith('.'))
              return { path: join(args.resolveDir, args.path), sideEffects: true };
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

/** The top-level statements that do something when the module loads. */
function effectsIn(code: string): string[] {
  const source = ts.createSourceFile('kept.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  return source.statements
    .filter(
      (statement) =>
        !ts.isImportDeclaration(statement) &&
        !ts.isExportDeclaration(statement) &&
        !ts.isFunctionDeclaration(statement) &&
        !ts.isClassDeclaration(statement) &&
        !ts.isVariableStatement(statement) &&
        !ts.isEmptyStatement(statement),
    )
    .map((statement) => statement.getText(source).slice(0, 200));
}

describe('packages that promise bundlers no effect at load ("sideEffects")', () => {
  it('are found, with their entries', () => {
    expect(promising.map((entry) => entry.name)).toContain('@blockwire/core');
  });

  it.each(promising.map((entry) => [`${entry.name} ${entry.target}`, entry] as const))(
    '%s does nothing at load but define names',
    async (_, { dir, target }) => {
      expect(effectsIn(await keptOf(dir, join(dir, target)))).toEqual([]);
    },
  );

  it.each(commands.map((entry) => [`${entry.name} ${entry.bin}`, entry] as const))(
    '%s: its files are the ones listed as having effects, and a bundle of it keeps its Node.js check',
    async (_, { dir, bin, manifest }) => {
      expect(manifest.sideEffects).toEqual([bin, './dist/node-check.js']);
      // Bundled as a bundler would, honouring the package's sideEffects.
      const result = await esbuild.build({
        entryPoints: [join(dir, bin)],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'node',
        packages: 'external',
        logLevel: 'silent',
      });
      expect(result.warnings.map((warning) => warning.text)).toEqual([]);
      expect(result.outputFiles[0]!.text).toContain('unsupportedNodeMessage()');
    },
  );

  it('the check sees an effect: an install at load, a guard that throws', () => {
    expect(effectsIn('import { x } from "y"; const a = 1; useFieldCompiler(a);')).toHaveLength(1);
    expect(effectsIn('const u = check(); if (u) throw new Error(u); function f() {}')).toHaveLength(1);
  });
});
