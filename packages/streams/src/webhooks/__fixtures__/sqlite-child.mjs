// A receiver process for the restart tests: node sqlite-child.mjs <dist entry> <db file> <mode> <deliveries.json | report file> [stopAfter]
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';

const [entry, dbPath, mode, fileArgument, stopAfter] = process.argv.slice(2);
const kit = createRequire(import.meta.url)(entry);
const say = (line) => process.stdout.write(`${line}\n`);
const hang = () => setInterval(() => {}, 60_000);

const store = kit.createSqliteTxStore(dbPath);
const tracker = kit.createBitcoinTxTracker({ store });
const deliveries = mode === 'serve' ? [] : JSON.parse(readFileSync(fileArgument, 'utf8'));

if (mode === 'serve') {
  // The README's node:http receiver over SQLite, nothing added. Its callback is slow (a database
  // write, a notification) and appends each change to the report file, as a user's would.
  const handler = kit.createWebhookHandler({
    secret: 'restart-secret',
    tracker,
    onBitcoin: async (_payload, { changes }) => {
      await sleep(25);
      for (const change of changes ?? []) appendFileSync(fileArgument, `${change.txid} ${change.to}\n`);
    },
  });
  const server = createServer((req, res) => {
    if (req.url !== '/idle') return handler.node(req, res);
    handler.idle().then(() => res.end('idle'));
  });
  server.listen(0, '127.0.0.1', () => say(`listening ${server.address().port}`));
}

if (mode === 'ingest') {
  // Ingest deliveries one by one; after `stopAfter` of them, hang until killed mid-stream.
  for (const [index, delivery] of deliveries.entries()) {
    await tracker.ingest(delivery);
    say(`ingested ${index + 1}`);
    if (index + 1 === Number(stopAfter)) {
      hang();
      break;
    }
  }
} else if (mode === 'accept') {
  // Accepted (the 200 would go out now) but the follow-up work never finishes: killed first.
  await tracker.accept(deliveries[0]);
  say('accepted');
  hang();
} else if (mode === 'crash-before-apply') {
  // Written to disk, then the process dies before applying it.
  store.saveDelivery(deliveries[0], Date.now());
  process.kill(process.pid, 'SIGKILL');
}
