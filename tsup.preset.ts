import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/** The one build every published package uses: ESM + CommonJS, each with its own type declarations. */
export function libraryBuild(entry: Options['entry'], overrides: Options = {}) {
  // tsup runs in the package's folder: its version goes into the build (e.g. the User-Agent).
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  return defineConfig({
    define: { __BLOCKWIRE_VERSION__: JSON.stringify(version) },
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    platform: 'node',
    splitting: false,
    // No `treeshake`: esbuild already drops unused code when it bundles, and tsup's extra rollup
    // pass for it ended every file with a second `//# sourceMappingURL` line.
    ...overrides,
  });
}
