import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import { libraryBuild } from '../../tsup.preset';

// internal: the plumbing the packages and the emulator share, kept out of the main entry.
// node-version: a side-effect-free entry a CLI can import to check Node before loading the rest.
// Two builds write into dist/ side by side, at the same time: dist/ is emptied once, here.
rmSync('dist', { recursive: true, force: true });

const node = libraryBuild(
  {
    index: 'src/index.ts',
    internal: 'src/internal.ts',
    'node-version': 'src/node-version.ts',
  },
  { clean: false },
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
  { 'index.fetch': 'src/index.ts', 'internal.fetch': 'src/internal.ts' },
  { dts: false, clean: false, platform: 'neutral', target: 'es2022', esbuildPlugins: [fetchRuntime] },
);

export default [node, fetchOnly];
