import { defineConfig, type Options } from 'tsup';
import { libraryBuild } from '../../tsup.preset';

// The two builds run in parallel: the library's clean step must leave the CLI's files alone.
const cliFiles = ['cli.js', 'cli.js.map'];
const library = libraryBuild(
  { index: 'src/index.ts' },
  { clean: cliFiles.map((file) => `!${file}`) },
) as Options;

export default defineConfig([
  library,
  {
    // The CLI: ESM only, an executable with a shebang; not part of the library's exports.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    clean: false,
    dts: false,
    splitting: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
