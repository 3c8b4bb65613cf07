import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import { libraryBuild } from '../../tsup.preset';

// internal: the plumbing the packages and the emulator share, kept out of the main entry.
// operations: the operation layer without a runtime (no timers, process, globalThis, console), on
// which the interface packages build and which an n8n node bundles.
// The entries of one build share their modules through chunks, so an error class is one class
// whichever entry it came through (`instanceof` holds across them).
// node-version: a side-effect-free entry a CLI can import to check Node before loading the rest.
// Two builds write into dist/ side by side, at the same time: dist/ is emptied once, here.
rmSync('dist', { recursive: true, force: true });

const node = libraryBuild(
  {
    index: 'src/index.ts',
    internal: 'src/internal.ts',
    operations: 'src/operations.ts',
    'node-version': 'src/node-version.ts',
  },
  { clean: false, splitting: true },
);

/**
 * The build for runtimes with `fetch` only (edge, browser, Deno, Bun), chosen through the export
 * conditions of package.json: the same sources with ./runtime.fetch.ts in place of ./runtime.ts,
 * so nothing of undici or Node.js is in it. Its types are the Node build's.
 */
const fetchRuntime: Plugin = {
  name: 'fetch-runtime',
  setup(build) {
    build.onResolve({ filter: /^\.\/runtime\.js$/ }, (args) => ({
      path: join(dirname(args.importer), 'runtime.fetch.ts'),
    }));
  },
};
const fetchOnly = libraryBuild(
  {
    'index.fetch': 'src/index.ts',
    'internal.fetch': 'src/internal.ts',
    'operations.fetch': 'src/operations.ts',
  },
  {
    dts: false,
    clean: false,
    splitting: true,
    platform: 'neutral',
    target: 'es2022',
    esbuildPlugins: [fetchRuntime],
  },
);

export default [node, fetchOnly];
