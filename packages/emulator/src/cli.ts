/**
 * `blockwire-emulator`: starts the emulator and prints one JSON line when it is ready, so a
 * script can read the URLs; SIGINT or SIGTERM stop it cleanly.
 */
// First, and kept out of the bundle: it must run before the modules below are evaluated.
import './node-check.js';
import { parseArgs } from 'node:util';
import { DEFAULT_API_KEY, type Emulator, startEmulator } from './server.js';

const HELP = `Usage: blockwire-emulator [options]

The whole Blockwire service on one machine. Prints one JSON line when ready:
{"ready":true,"apiKey":...,"urls":{"evm":...,"solana":...,"streams":...,"node":...},"control":...}

Options:
  --host HOST          interface to bind (default 127.0.0.1)
  --port PORT          port to listen on; 0 picks a free one (default 0)
  --api-key KEY        API key every interface expects (default ${DEFAULT_API_KEY})
  --seed N             seed of the fixtures and of fault injection (default 1)
  --no-anvil           do not start anvil; the node interface answers 503
  --state FILE         keep streams, settings and the Bitcoin chain in FILE across restarts
  --strict-webhooks    require public HTTPS webhook targets, like the real service
  --allow-host NAME    also answer requests naming this host (repeatable; default:
                       loopback names and IP literals only, against DNS rebinding)
  --allow-origin URL   also answer web pages of this origin, e.g. https://app.example
                       (repeatable; default: loopback pages only)
  -h, --help           show this help
`;

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(argv);
  } catch (error) {
    process.stderr.write(`blockwire-emulator: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const port = integer(values.port, '--port', 0, 65_535);
  const seed = integer(values.seed, '--seed', 0, Number.MAX_SAFE_INTEGER);
  if (port === null || seed === null) {
    process.stderr.write(`\n${HELP}`);
    return 2;
  }

  // Listen before starting, so a signal during startup still stops anvil instead of orphaning it.
  const stopRequested = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  let stopped = false;
  void stopRequested.then(() => {
    stopped = true;
  });

  let emulator: Emulator;
  try {
    emulator = await startEmulator({
      host: values.host,
      port,
      apiKey: values['api-key'],
      seed,
      anvil: !values['no-anvil'],
      stateFile: values.state,
      strictWebhooks: values['strict-webhooks'],
      allowedHosts: values['allow-host'],
      allowedOrigins: values['allow-origin'],
    });
  } catch (error) {
    process.stderr.write(`blockwire-emulator: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  if (stopped) {
    await emulator.close();
    return 0;
  }
  process.stdout.write(
    `${JSON.stringify({ ready: true, apiKey: emulator.apiKey, urls: emulator.urls, control: emulator.control })}\n`,
  );
  await stopRequested;
  await emulator.close();
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      'api-key': { type: 'string', default: DEFAULT_API_KEY },
      seed: { type: 'string', default: '1' },
      'no-anvil': { type: 'boolean', default: false },
      state: { type: 'string' },
      'strict-webhooks': { type: 'boolean', default: false },
      'allow-host': { type: 'string', multiple: true, default: [] },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
}

function integer(text: string, flag: string, min: number, max: number): number | null {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    process.stderr.write(
      `blockwire-emulator: ${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}\n`,
    );
    return null;
  }
  return value;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`blockwire-emulator: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
