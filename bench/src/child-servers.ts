/**
 * The servers of the bench, each run in a child process so the client's CPU time is measured
 * alone (`process.cpuUsage` of the bench process has none of the server's work in it): the REST
 * and Solana servers, and the emulator `n8n-items` prices at.
 *
 *   node src/child-servers.ts rest | solana <addresses> | emulator
 *
 * prints `{"url": …}` on its first line once it listens (the emulator: its control URL, with its
 * `apiKey`, `urls` and `control`); `GET /__stats` answers the Solana server's counters (requests,
 * refused, peak in flight), `POST /__stats/reset` zeroes them.
 */
import type { Emulator } from '@blockwire/emulator';
import { evmTokenPrice, solanaAddresses, solanaPrice } from './fixtures.ts';
import { listen, readText, sendJson } from './servers.ts';

/**
 * The Solana server's latency. 10 ms, not 20: a run is still mostly waiting (sequential's CPU is
 * 2.4–2.7× Blockwire's at either), and at 10 ms `--only solana-scale --repeat 3` took 527 s,
 * against 898 s at 20 (bench/README.md).
 */
export const LATENCY_MS = 10;
/** The Solana server's rule: more requests than this in flight for one key get a 429. */
export const RATE_LIMIT_IN_FLIGHT = 10;
export const SOLANA_CHUNK = 100;

export interface SolanaStats {
  requests: number;
  refused: number;
  peak: number;
}

async function restServer() {
  const body = Buffer.from(JSON.stringify(evmTokenPrice));
  return listen((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith(`/api/v2.2/erc20/`)) sendJson(res, 200, body);
    else sendJson(res, 404, Buffer.from('{"message":"not found"}'));
  });
}

async function solanaServer(count: number) {
  const addresses = solanaAddresses(count);
  // Prepared once: the server's own work must not be what is measured.
  const answers = new Map<string, Buffer>();
  for (let i = 0; i < addresses.length; i += SOLANA_CHUNK) {
    const chunk = addresses.slice(i, i + SOLANA_CHUNK);
    answers.set(chunk[0]!, Buffer.from(JSON.stringify(chunk.map(solanaPrice))));
  }
  let inFlight = 0;
  const stats: SolanaStats = { requests: 0, refused: 0, peak: 0 };
  return listen(async (req, res) => {
    if (req.url === '/__stats') return sendJson(res, 200, Buffer.from(JSON.stringify(stats)));
    if (req.url === '/__stats/reset') {
      Object.assign(stats, { requests: 0, refused: 0, peak: 0 });
      return sendJson(res, 200, Buffer.from('{}'));
    }
    stats.requests++;
    if (inFlight >= RATE_LIMIT_IN_FLIGHT) {
      stats.refused++;
      return sendJson(res, 429, Buffer.from('{"message":"Too many requests"}'), { 'retry-after': '1' });
    }
    inFlight++;
    stats.peak = Math.max(stats.peak, inFlight);
    try {
      const { addresses: asked } = JSON.parse(await readText(req)) as { addresses: string[] };
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
      const answer = answers.get(asked[0]!);
      if (!answer || asked.length > SOLANA_CHUNK)
        sendJson(res, 400, Buffer.from('{"message":"unexpected chunk"}'));
      else sendJson(res, 200, answer);
    } finally {
      inFlight--;
    }
  });
}

/** What the emulator's child process says of it: where each interface is, and the key it takes. */
export type EmulatorInChild = Pick<Emulator, 'apiKey' | 'urls' | 'control'> & { url: string };

/** The emulator without anvil, as the n8n e2e tests run it; imported here only, when asked for. */
async function emulatorServer() {
  const { startEmulator } = await import('@blockwire/emulator');
  const emulator = await startEmulator({ anvil: false });
  const { apiKey, urls, control } = emulator;
  const info: EmulatorInChild = { url: control, apiKey, urls, control };
  return { info, close: () => emulator.close() };
}

async function serverOf(kind: string | undefined, count: string | undefined) {
  if (kind === 'emulator') return emulatorServer();
  const server = kind === 'rest' ? await restServer() : await solanaServer(Number(count));
  return { info: { url: server.url }, close: server.close };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [kind, count] = process.argv.slice(2);
  const server = await serverOf(kind, count);
  process.stdout.write(`${JSON.stringify(server.info)}\n`);
  // The parent closing its end of stdin (or dying) ends the server.
  process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
  process.stdin.resume();
}
