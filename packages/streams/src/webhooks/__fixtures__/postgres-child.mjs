// A receiver process for the PostgreSQL tests, killed with SIGKILL by them:
//   node postgres-child.mjs <dist folder> <database url> <schema> <mode> <delivery json>
// `accept`: accepts the delivery (the 200 would go out now), then hangs before its work is done.
// `save`: writes the raw delivery, then hangs before applying it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [dist, url, schema, mode, delivery] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { createPostgresTxStore } = require(join(dist, 'postgres.cjs'));
const { createBitcoinTxTracker } = require(join(dist, 'webhooks.cjs'));
const pg = require('pg');

const pool = new pg.Pool({ connectionString: url, max: 2 });
const store = await createPostgresTxStore(pool, { schema });
const payload = JSON.parse(delivery);
let id;
if (mode === 'accept') id = (await createBitcoinTxTracker({ store }).accept(payload)).deliveryId;
else if (mode === 'save') id = await store.saveDelivery(payload, Date.now());
process.stdout.write(`${JSON.stringify({ owner: await store.owner(), id })}\n`);
setInterval(() => {}, 60_000);
