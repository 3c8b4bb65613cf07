import { defineConfig } from 'tsup';

export default defineConfig([
  // An application, not a library: one ESM entry for Node; the page (src/public) is served as is.
  {
    entry: { main: 'src/main.ts', index: 'src/index.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    // Not dist/public: the second build writes there at the same time.
    clean: ['*.js', '*.js.map'],
    target: 'node22',
    platform: 'node',
    splitting: true,
    treeshake: true,
  },
  // The input checks of the page's forms (src/inputs.ts: the routes' schemas and the SDK's), for
  // the browser: served as /lib/checks.js beside the page's own scripts.
  {
    entry: { checks: 'src/inputs.ts' },
    outDir: 'dist/public',
    format: ['esm'],
    dts: false,
    sourcemap: false,
    clean: true,
    target: 'es2022',
    platform: 'browser',
    noExternal: [/.*/],
    minify: true,
    treeshake: true,
    esbuildOptions(options) {
      options.alias = { crypto: './src/browser-crypto.ts', 'node:crypto': './src/browser-crypto.ts' };
    },
  },
]);
