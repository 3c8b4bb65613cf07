import { defineConfig, type Options } from 'tsup';
import { cliBuild, libraryBuild } from '../../tsup.preset';

// The two builds run in parallel: the library's clean step must leave the CLI's files alone.
const cliFiles = ['cli.js', 'cli.js.map', 'node-check.js', 'node-check.js.map'];
const library = libraryBuild(
  { index: 'src/index.ts' },
  { clean: cliFiles.map((file) => `!${file}`) },
) as Options;

// node-check stays a file of its own, imported first, so it runs before anything else loads.
export default defineConfig([
  library,
  cliBuild({ cli: 'src/cli.ts', 'node-check': 'src/node-check.ts' }, { external: ['./node-check.js'] }),
]);
