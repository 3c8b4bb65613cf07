import { defineConfig, type Options } from 'tsup';
import { cliBuild, libraryBuild } from '../../tsup.preset';

// The two builds run in parallel: the library's clean step must leave the CLI's files alone.
const cliFiles = ['cli.js', 'cli.js.map'];
const library = libraryBuild(
  { index: 'src/index.ts' },
  { clean: cliFiles.map((file) => `!${file}`) },
) as Options;

export default defineConfig([library, cliBuild({ cli: 'src/cli.ts' })]);
