import { defineConfig } from 'tsup';

// An application, not a library: one ESM entry for Node; the page (src/public) is served as is.
export default defineConfig({
  entry: { main: 'src/main.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  splitting: true,
  treeshake: true,
});
