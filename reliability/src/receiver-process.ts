/**
 * A webhook receiver the way the streams README builds one: `createWebhookHandler` over a tracker
 * on `createSqliteTxStore`, served by node:http on 127.0.0.1. Run as its own process so it can be
 * SIGKILLed mid-run and started again on the same files.
 *
 *   node receiver-process.ts <sqlite file> <changes log> <secret> <max body bytes>
 *
 * Prints `{"port": N}` when it listens. Each change `onBitcoin` reports is appended to the changes
 * log (one JSON line, written before the callback returns). SIGTERM waits for the callbacks, closes
 * the store and exits 0.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createBitcoinTxTracker,
  createSqliteTxStore,
  createWebhookHandler,
  toNodeListener,
} from '@blockwire/streams';

const [databasePath, changesLog, secret, maxBodyBytes] = process.argv.slice(2);
if (!databasePath || !changesLog || !secret || !maxBodyBytes) {
  process.stderr.write('usage: receiver-process.ts <sqlite file> <changes log> <secret> <max body bytes>\n');
  process.exit(2);
}

const store = createSqliteTxStore(databasePath);
const tracker = createBitcoinTxTracker({ store });
const handler = createWebhookHandler({
  secret,
  tracker,
  onBitcoin: (_payload, { changes }) => {
    const lines = (changes ?? []).map(
      (change) => `${JSON.stringify({ txid: change.txid, to: change.to })}\n`,
    );
    if (lines.length > 0) appendFileSync(changesLog, lines.join(''));
  },
  onError: (error, { phase }) => {
    process.stderr.write(`receiver ${phase}: ${error instanceof Error ? error.message : String(error)}\n`);
  },
});
const server = createServer(toNodeListener(handler, { maxBodyBytes: Number(maxBodyBytes) }));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.once('SIGTERM', async () => {
  server.close();
  server.closeAllConnections();
  await handler.idle();
  store.close();
  process.exit(0);
});
