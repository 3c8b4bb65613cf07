// A receiver process for the restart tests: node sqlite-child.mjs <dist entry> <db file> <mode> <deliveries.json> [stopAfter]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [entry, dbPath, mode, deliveriesPath, stopAfter] = process.argv.slice(2);
const kit = createRequire(import.meta.url)(entry);
const deliveries = JSON.parse(readFileSync(deliveriesPath, 'utf8'));
const say = (line) => process.stdout.write(`${line}\n`);
const hang = () => setInterval(() => {}, 60_000);

const store = kit.createSqliteTxStore(dbPath);
const tracker = kit.createBitcoinTxTracker({ store });

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
