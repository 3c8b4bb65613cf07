#!/usr/bin/env node
// `npm run emulator [-- options]`: builds the emulator (quietly: its usage or its ready line is
// the first thing printed), then runs its command line, blockwire-emulator, with the options.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildQuietly, root } from './build-quietly.mjs';

await buildQuietly('@blockwire/emulator', 'the emulator');
// Its command line reads process.argv: `node scripts/emulator.mjs --help` passes `--help` on.
await import(pathToFileURL(join(root, 'packages', 'emulator', 'dist', 'cli.js')).href);
