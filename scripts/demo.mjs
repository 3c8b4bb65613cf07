#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
// `npm run demo`: starts the local Blockwire service (the emulator) and shows how to use it.
// It runs until Ctrl-C.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line = '') => process.stdout.write(`${line}\n`);

const build = spawnSync(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', 'build', '--output-logs=errors-only'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const emulatorEntry = join(root, 'packages', 'emulator', 'dist', 'index.js');
const emulator = existsSync(emulatorEntry) ? await import(pathToFileURL(emulatorEntry).href) : {};
if (typeof emulator.startEmulator !== 'function') {
  say('Blockwire demo');
  say('The SDK packages are built (packages/*/dist). The local emulator and the demo app are not built yet,');
  say('so there is nothing to serve: this demo only checks that the workspace builds.');
  process.exit(0);
}

const running = await emulator.startEmulator({ port: Number(process.env.PORT ?? 0) });
say('Blockwire demo: the whole service is running locally (the emulator).');
say(`  API key : ${running.apiKey}`);
for (const [name, url] of Object.entries(running.urls)) say(`  ${name.padEnd(8)}: ${url}`);
say(`  control : ${running.control}`);
say();
say('Try it:');
say(
  `  curl -H 'X-API-Key: ${running.apiKey}' '${running.urls.evm}/erc20/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/price?chain=eth'`,
);
say('Press Ctrl-C to stop.');

const stop = async () => {
  await running.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
