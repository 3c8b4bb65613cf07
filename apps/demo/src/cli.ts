/**
 * The demo's command line: starts the service (the local emulator unless BLOCKWIRE_API_KEY is
 * set) and the demo server, prints the page's URL, and on Ctrl-C (SIGINT) or SIGTERM stops it
 * all, anvil included.
 */
import { fileURLToPath } from 'node:url';
import { ConfigError, ENVIRONMENT, readConfig } from './config.js';
import { startDemo } from './demo.js';

/** Default folder of the board's SQLite file and the emulator's state (git-ignored). */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));
/** A stop that takes longer than this (a stuck socket) is cut short. */
const STOP_TIMEOUT_MS = 10_000;

const say = (line = '') => process.stdout.write(`${line}\n`);

function usage(): string {
  const width = Math.max(...Object.keys(ENVIRONMENT).map((name) => name.length));
  return [
    'Usage: npm run demo',
    '',
    'Starts the Blockwire demo page on 127.0.0.1 against the local emulator (no key, no network).',
    'Environment:',
    ...Object.entries(ENVIRONMENT).map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`),
    `  ${'BLOCKWIRE_DEMO_DATA_DIR'.padEnd(width)}  where the board and the emulator's state are kept (default apps/demo/data)`,
  ].join('\n');
}

/**
 * The whole wait, in seconds: since `npm run demo` when the bootstrap says when that was
 * (`BLOCKWIRE_LAUNCHED_AT`, ms since the epoch), Node, pnpm, the install and the build included.
 */
export function readyIn(startedAt: number, readyAt: number, launchedAt: string | undefined): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const launched = Number(launchedAt);
  if (!launchedAt || !Number.isFinite(launched) || launched > startedAt) {
    return `ready in ${seconds(readyAt - startedAt)}`;
  }
  return `ready in ${seconds(readyAt - launched)}: ${seconds(startedAt - launched)} to install and build, ${seconds(readyAt - startedAt)} to start`;
}

/** Runs the demo until a signal; resolves to the exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    say(usage());
    return 0;
  }
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n\n${usage()}\n`);
    return 2;
  }
  const started = Date.now();
  const demo = await startDemo({ ...config, dataDir: env.BLOCKWIRE_DEMO_DATA_DIR || DEFAULT_DATA_DIR });
  say(`Blockwire demo — ${demo.description.label}: ${demo.description.detail}.`);
  say(`Open ${demo.url}  (${readyIn(started, Date.now(), env.BLOCKWIRE_LAUNCHED_AT)}; Ctrl-C stops it)`);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // A second signal while stopping, or a stop that hangs, ends the process at once.
  const force = () => process.exit(1);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  setTimeout(force, STOP_TIMEOUT_MS).unref();
  process.stderr.write(
    `\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping the demo, the emulator and anvil…\n`,
  );
  await demo.close();
  return 0;
}
