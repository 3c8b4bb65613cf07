/**
 * The live Bitcoin board: a Bitcoin stream that delivers to this demo's own receiver
 * (`createWebhookHandler` + the tracker on SQLite), and the rows the page shows, pushed to every
 * open page as transactions move mempool → in block → confirmed.
 */
import { join } from 'node:path';
import type { Client } from '@blockwire/core';
import {
  addBitcoinStreamAddress,
  type BitcoinStream,
  type BitcoinTransaction,
  btcToSats,
  createBitcoinStream,
  createBitcoinTxTracker,
  createSqliteTxStore,
  createWebhookHandler,
  isCoinbaseTransaction,
  listBitcoinStreamAddresses,
  listBitcoinStreams,
  type NodeListener,
  satsToBtc,
  setBitcoinStreamStatus,
  type TxRecord,
  updateBitcoinStream,
} from '@blockwire/streams';
import { sameBitcoinAddress } from './bitcoin-address.js';
import type { BitcoinStatusView, BoardEvents, BoardRow } from './views.js';

/** The stream is found again by this tag after a restart (on the emulator's state file, or the real service). */
export const DEMO_STREAM_TAG = 'blockwire-demo';

/**
 * What a new demo stream watches: the first two receive addresses of the BIP84 test wallet
 * ("abandon … about"), a taproot address and the genesis block's legacy address.
 */
export const DEFAULT_WATCHED_ADDRESSES = [
  'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
  'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
];

/** The board shows this many of the most recently moved transactions (the store keeps all). */
export const BOARD_SIZE = 200;

type Listener = <E extends keyof BoardEvents>(event: E, data: BoardEvents[E]) => void;

export interface BitcoinBoardOptions {
  client: Client;
  dataDir: string;
  /** The secret deliveries are signed with. */
  secret: string;
  /** The simulator's buttons work (the emulator runs the Bitcoin network). */
  simulator: boolean;
  /** Report a failure the page cannot show (a bad delivery, a store error). */
  log: (message: string) => void;
}

export interface BitcoinBoard {
  /** The receiver: mount it at the URL the stream delivers to. */
  receiver: NodeListener;
  /** Finds or creates the demo stream and points it at `webhookUrl`. */
  connect(webhookUrl: string): Promise<void>;
  status(): BitcoinStatusView;
  /** The most recently moved transactions first, at most {@link BOARD_SIZE}. */
  rows(): BoardRow[];
  /** Adds an address to the stream; false when it was watched already (nothing is sent then). */
  watch(address: string): Promise<boolean>;
  setAllAddresses(allAddresses: boolean): Promise<void>;
  /** Records the simulated chain's tip (after mining). */
  setTip(height: number): void;
  subscribe(listener: Listener): () => void;
  close(): Promise<void>;
}

export function createBitcoinBoard(options: BitcoinBoardOptions): BitcoinBoard {
  const { client } = options;
  const store = createSqliteTxStore(join(options.dataDir, 'bitcoin-board.sqlite'));
  const tracker = createBitcoinTxTracker({ store });
  const listeners = new Set<Listener>();
  let stream: BitcoinStream | undefined;
  let watched: string[] = [];
  let tip: number | undefined;
  /**
   * When "every transaction" was last turned off: the stream delivers nothing more for a
   * transaction of no watched address seen before, so its row would wait at its stage forever.
   */
  let everyTransactionUntil: number | undefined;

  const emit: Listener = (event, data) => {
    for (const listener of listeners) listener(event, data);
  };

  const handler = createWebhookHandler({
    secret: options.secret,
    tracker,
    onBitcoin: (payload, { changes }) => {
      const height = Number(payload.block.height);
      if (height > 0 && height > (tip ?? 0)) {
        tip = height;
        emit('status', status());
      }
      for (const change of changes ?? []) {
        const record = store.get(change.txid);
        if (record) emit('tx', toRow(record, watched));
      }
    },
    onError: (error, { phase }) =>
      options.log(`a Bitcoin delivery failed (${phase}): ${error instanceof Error ? error.message : error}`),
  });

  function status(): BitcoinStatusView {
    return {
      enabled: stream !== undefined,
      simulator: options.simulator,
      allAddresses: stream?.allAddresses ?? false,
      watched,
      ...(stream ? { streamId: stream.id } : {}),
      ...(tip === undefined ? {} : { tip }),
    };
  }

  async function connect(webhookUrl: string): Promise<void> {
    // Deliveries a crash left unsettled were applied already; the board reads the store, so
    // nothing else is owed for them.
    for (const delivery of await tracker.pendingDeliveries()) await tracker.settle(delivery.id);
    const existing = await findDemoStream(client);
    if (!existing) {
      stream = await createBitcoinStream(client, {
        webhookUrl,
        description: 'Blockwire demo: the live board',
        tag: DEMO_STREAM_TAG,
        includeInputs: true,
        includeOutputs: true,
      });
      for (const address of DEFAULT_WATCHED_ADDRESSES) {
        await addBitcoinStreamAddress(client, { id: stream.id, address });
      }
    } else if (existing.webhookUrl !== webhookUrl) {
      stream = await updateBitcoinStream(client, { id: existing.id, webhookUrl });
    } else {
      stream = existing;
    }
    if (stream.status !== 'active') {
      await setBitcoinStreamStatus(client, { id: stream.id, status: 'active' });
    }
    watched = await listWatched(client, stream.id);
    emit('status', status());
  }

  async function watch(address: string): Promise<boolean> {
    const current = requireStream();
    if (watched.some((candidate) => sameBitcoinAddress(candidate, address))) return false;
    await addBitcoinStreamAddress(client, { id: current.id, address });
    watched = await listWatched(client, current.id);
    emit('status', status());
    return true;
  }

  async function setAllAddresses(allAddresses: boolean): Promise<void> {
    const wasOn = stream?.allAddresses ?? false;
    stream = await updateBitcoinStream(client, { id: requireStream().id, allAddresses });
    if (wasOn && !allAddresses) {
      everyTransactionUntil = Date.now();
      // The rows the stream no longer follows leave every open page.
      emit('board', { rows: rows(), status: status(), size: BOARD_SIZE });
    } else emit('status', status());
  }

  /**
   * A row stays while the stream still follows its transaction: it touches a watched address, or
   * the stream delivers every transaction and has done so since the row last moved.
   */
  function followed(row: BoardRow): boolean {
    // Before the stream is connected there is nothing to judge by: the store's rows show.
    if (!stream || row.watchedAddresses.length > 0) return true;
    if (!stream.allAddresses) return false;
    return everyTransactionUntil === undefined || row.updatedAt > everyTransactionUntil;
  }

  function rows(): BoardRow[] {
    return store
      .list({})
      .sort((a, b) => b.updatedAt - a.updatedAt || b.firstSeenAt - a.firstSeenAt)
      .map((record) => toRow(record, watched))
      .filter(followed)
      .slice(0, BOARD_SIZE);
  }

  function requireStream(): BitcoinStream {
    if (!stream) throw new Error('the demo stream is not connected');
    return stream;
  }

  return {
    receiver: handler.node,
    connect,
    status,
    rows,
    watch,
    setAllAddresses,
    setTip(height) {
      if (height > (tip ?? 0)) {
        tip = height;
        emit('status', status());
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await handler.idle();
      store.close();
    },
  };
}

async function findDemoStream(client: Client): Promise<BitcoinStream | undefined> {
  let cursor: string | undefined;
  do {
    const page = await listBitcoinStreams(client, { limit: 100, ...(cursor ? { cursor } : {}) });
    const found = page.result.find((candidate) => candidate.tag === DEMO_STREAM_TAG);
    if (found) return found;
    cursor = (page as { cursor?: string | null }).cursor ?? undefined;
  } while (cursor);
  return undefined;
}

async function listWatched(client: Client, id: string): Promise<string[]> {
  const addresses: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listBitcoinStreamAddresses(client, { id, limit: 100, ...(cursor ? { cursor } : {}) });
    for (const record of page.result ?? []) if (record.address) addresses.push(record.address);
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return addresses;
}

/** The exact satoshis of a payload amount; 0 for a missing one (or one finer than a satoshi). */
function sats(value: number | string | null | undefined): bigint {
  if (value === null || value === undefined) return 0n;
  try {
    return btcToSats(value);
  } catch {
    return 0n;
  }
}

function outputAddresses(output: NonNullable<BitcoinTransaction['vout']>[number]): string[] {
  return [output.address, output.scriptPubKey?.address, ...(output.addresses ?? [])].filter(
    (address): address is string => typeof address === 'string',
  );
}

export function toRow(record: TxRecord, watched: readonly string[]): BoardRow {
  const { tx } = record;
  const isWatched = (address: string) => watched.some((candidate) => sameBitcoinAddress(candidate, address));
  let receivedSats = 0n;
  const touched = new Set<string>();
  for (const output of tx.vout ?? []) {
    const hits = outputAddresses(output).filter(isWatched);
    if (hits.length > 0) receivedSats += sats(output.value);
    for (const hit of hits) touched.add(hit);
  }
  for (const input of tx.vin ?? []) if (input.address && isWatched(input.address)) touched.add(input.address);
  for (const address of tx.addresses ?? []) if (isWatched(address)) touched.add(address);
  const valueSats =
    tx.value === null || tx.value === undefined
      ? (tx.vout ?? []).reduce((sum, output) => sum + sats(output.value), 0n)
      : sats(tx.value);
  const height = Number(record.block.height);
  return {
    txid: record.txid,
    stage: record.stage,
    coinbase: isCoinbaseTransaction(tx),
    blockHeight: record.stage === 'mempool' || !(height > 0) ? null : height,
    valueSats: valueSats.toString(),
    valueBtc: satsToBtc(valueSats),
    receivedSats: receivedSats.toString(),
    receivedBtc: satsToBtc(receivedSats),
    watchedAddresses: [...touched],
    firstSeenAt: record.firstSeenAt,
    updatedAt: record.updatedAt,
  };
}
