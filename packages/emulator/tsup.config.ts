import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../tsup.preset';

export default defineConfig(libraryWithCli({ index: 'src/index.ts' }, 'src/cli.ts'));
