#!/usr/bin/env node
// `npm run demo`: starts the whole service locally (the emulator, with a real anvil node), takes a
// short tour of it through the SDK packages — prices, entities, JSON-RPC, and a Bitcoin stream
// whose webhook deliveries move a transaction mempool → in block → confirmed — then keeps the
// service running for you to call until Ctrl-C. `PORT=8080 npm run demo` picks the port.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line = '') => process.stdout.write(`${line}\n`);
const load = (pkg, entry = 'index.js') =>
  import(pathToFileURL(join(root, 'packages', pkg, 'dist', entry)).href);

const build = spawnSync(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', 'build', '--output-logs=errors-only'],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const { startEmulator, DEFAULT_SECRET_KEY } = await load('emulator');
const { createClient } = await load('core');
const { getEvmTokenPrice, getSolanaTokenPrices } = await load('prices');
const { searchEntities } = await load('entities');
const { createRpcClient } = await load('rpc');
const {
  createBitcoinStream,
  addBitcoinStreamAddress,
  createBitcoinTxTracker,
  createWebhookHandler,
  satsToBtc,
  btcToSats,
} = await load('streams');

const emulator = await startEmulator({ port: Number(process.env.PORT ?? 0) });
const client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
let receiver;

async function stop() {
  receiver?.closeAllConnections();
  receiver?.close();
  await client.close();
  await emulator.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

say('Blockwire demo: the whole service is running on this machine (the emulator).');
say('(The demo web app is not built yet: this tour uses the SDK packages from the terminal.)');
say();

const usdc = await getEvmTokenPrice(client, {
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  chain: 'eth',
});
say(
  `prices    USDC on eth: $${usdc.usdPrice} via ${usdc.exchangeName} (security score ${usdc.securityScore})`,
);
const solana = await getSolanaTokenPrices(client, {
  addresses: ['So11111111111111111111111111111111111111112', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
});
say(`prices    Solana: ${solana.map((p) => `${p.symbol} $${p.usdPrice}`).join(', ')}`);

const found = await searchEntities(client, { query: 'binance' });
const entity = found.result.entities[0];
say(
  `entities  search "binance": ${entity?.name} (${entity?.type}), ${found.result.addresses.length} labelled addresses`,
);

const rpc = createRpcClient(client, { chain: 'eth' });
const block = await rpc.getBlockByNumber('latest');
say(
  `rpc       latest block ${Number(block.number)} with ${block.transactions.length} transactions (a real anvil node)`,
);
say();

// A Bitcoin stream delivering to a receiver built with the webhook kit.
const tracker = createBitcoinTxTracker();
const watched = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const done = new Promise((resolve) => {
  const handler = createWebhookHandler({
    secret: DEFAULT_SECRET_KEY,
    tracker,
    onBitcoin: (payload, { changes }) => {
      for (const change of changes ?? []) {
        const received = change.tx.vout
          .filter((out) => out.addresses?.includes(watched) || out.address === watched)
          .reduce((sum, out) => sum + btcToSats(out.value), 0n);
        say(
          `webhook   ${change.txid.slice(0, 16)}…  ${(change.from ?? 'new').padEnd(8)} → ${change.to.padEnd(9)} block ${payload.block.height}  received ${satsToBtc(received)} BTC`,
        );
        if (change.to === 'confirmed') resolve();
      }
    },
  });
  receiver = createServer(handler.node);
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const stream = await createBitcoinStream(client, {
  webhookUrl: `http://127.0.0.1:${receiver.address().port}/webhooks/bitcoin`,
  description: 'demo',
  includeOutputs: true,
});
await addBitcoinStreamAddress(client, { id: stream.id, address: watched });
say(`streams   Bitcoin stream ${stream.id} watches ${watched}`);

const control = (path, body) =>
  fetch(`${emulator.control}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((response) => response.json());
await control('/bitcoin/transactions', { to: watched, amountBtc: 0.125 });
for (let i = 0; i < 3; i++) {
  await new Promise((resolve) => setTimeout(resolve, 400));
  await control('/bitcoin/mine', { blocks: 1 });
}
await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10_000))]);

say();
say('The service keeps running. Call it yourself:');
say(`  API key : ${emulator.apiKey}`);
for (const [name, url] of Object.entries(emulator.urls)) say(`  ${name.padEnd(8)}: ${url}`);
say(`  control : ${emulator.control}`);
say();
say(
  `  curl -H 'X-API-Key: ${emulator.apiKey}' '${emulator.urls.evm}/erc20/0x514910771AF9Ca656af840dff83E8264EcF986CA/price?chain=eth'`,
);
say(`  curl -X POST -H 'content-type: application/json' -d '{"blocks":1}' ${emulator.control}/bitcoin/mine`);
say('Press Ctrl-C to stop.');
