import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

/**
 * esbuild gives a file without code of its own (a chunk, or an entry that only re-exports from
 * chunks) a source map whose one source is the file itself, by the build machine's absolute path,
 * with no content. Such a map maps nothing: it is written as the empty map it is, so no path of
 * this machine ships.
 */
export async function emptySelfMaps(skip: readonly string[] = []): Promise<void> {
  for (const file of readdirSync('dist')) {
    if (!/\.c?js\.map$/.test(file) || skip.includes(file)) continue;
    const path = join('dist', file);
    let map: { sources: string[]; sourcesContent?: unknown[] };
    try {
      map = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      // Core's two builds write into one dist/ at once: a map the other build is still writing
      // is that build's to empty, in its own onSuccess, once it is whole.
      if (error instanceof SyntaxError) continue;
      throw error;
    }
    const self = map.sources.length === 1 && map.sources[0]!.endsWith(file.replace(/\.map$/, ''));
    if (self && !map.sourcesContent) {
      writeFileSync(path, JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }));
    }
  }
}

/** The one build every published package uses: ESM + CommonJS, each with its own type declarations. */
export function libraryBuild(entry: Options['entry'], overrides: Options = {}) {
  // tsup runs in the package's folder: its version goes into the build (e.g. the User-Agent).
  return defineConfig({
    define: packageDefines(),
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    platform: 'node',
    splitting: false,
    // The CommonJS build has no `import.meta`: tsup's shim gives it `import.meta.url` from __filename
    // (the emulator finds anvil's binary relative to itself).
    shims: true,
    onSuccess: () => emptySelfMaps(),
    // No `treeshake`: esbuild already drops unused code when it bundles, and tsup's extra rollup
    // pass for it ended every file with a second `//# sourceMappingURL` line.
    ...overrides,
  });
}

/** A package's command-line program: ESM only, an executable with a shebang, not among its exports. */
export function cliBuild(entry: Options['entry'], overrides: Options = {}): Options {
  return {
    define: packageDefines(),
    entry,
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    clean: false,
    dts: false,
    splitting: false,
    banner: { js: '#!/usr/bin/env node' },
    ...overrides,
  };
}

/**
 * Constants put into a build from the package's package.json (tsup runs in the package's folder):
 * its version (the User-Agent) and its `engines.node` range (the check that fails at import on an
 * older Node with one clear sentence, instead of a crash inside undici).
 */
export function packageDefines(): Record<string, string> {
  const { version, engines } = JSON.parse(readFileSync('package.json', 'utf8')) as {
    version: string;
    engines?: { node?: string };
  };
  return {
    __BLOCKWIRE_VERSION__: JSON.stringify(version),
    __BLOCKWIRE_NODE_ENGINES__: JSON.stringify(engines?.node ?? ''),
  };
}

/**
 * A library with a command-line program beside it (the emulator, the MCP server). The two builds
 * run in parallel into one `dist`: the library's clean step and its source-map pass leave the
 * program's files alone (reading a map the other build is still writing failed the build).
 * `node-check` stays a file of its own, imported first, so it runs before anything else loads.
 */
export function libraryWithCli(entry: Record<string, string>, cli: string): Options[] {
  const cliFiles = ['cli.js', 'cli.js.map', 'node-check.js', 'node-check.js.map'];
  const library = libraryBuild(entry, {
    clean: cliFiles.map((file) => `!${file}`),
    onSuccess: () => emptySelfMaps(cliFiles),
  }) as Options;
  return [
    library,
    cliBuild({ cli, 'node-check': 'src/node-check.ts' }, { external: ['./node-check.js'] }),
  ];
}
