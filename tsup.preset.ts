import { defineConfig, type Options } from 'tsup';

/** The one build every published package uses: ESM + CommonJS, each with its own type declarations. */
export function libraryBuild(entry: Options['entry'], overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    platform: 'node',
    splitting: false,
    treeshake: true,
    ...overrides,
  });
}
