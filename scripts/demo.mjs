#!/usr/bin/env node
// `npm run demo`: builds what the demo needs (a cache hit when nothing changed), then runs the
// demo app (apps/demo): the whole service on this machine — the emulator with a real anvil node —
// and a web page on 127.0.0.1 with token prices, entities, blocks and a live Bitcoin stream.
// With BLOCKWIRE_API_KEY set it uses the real service instead. Ctrl-C stops everything.
// `PORT=8080 npm run demo` picks the page's port; `npm run demo -- --help` lists the variables.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildQuietly, root } from './build-quietly.mjs';

// Quiet unless it fails: the page's URL should be the one thing to read.
await buildQuietly('blockwire-demo', 'the demo');

const { runCli } = await import(pathToFileURL(join(root, 'apps', 'demo', 'dist', 'index.js')).href);
try {
  process.exit(await runCli(process.argv.slice(2), process.env));
} catch (error) {
  process.stderr.write(
    `The demo could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
