#!/usr/bin/env node
// `npm run demo` ends here (through scripts/demo.mjs), as does `node apps/demo/dist/main.js`.
import { runCli } from './cli.js';

runCli(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `The demo could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
