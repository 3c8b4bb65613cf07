/**
 * Starts the whole demo: the service (the local emulator with anvil, or the real one), the live
 * Bitcoin board and the demo server; `close()` stops all of them.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Backend, startBackend } from './backend.js';
import { type BitcoinBoard, BOARD_SIZE, createBitcoinBoard } from './bitcoin-board.js';
import { DEFAULT_PORT, type DemoConfig, describeBackend } from './config.js';
import { toProblem } from './problems.js';
import { bitcoinRoutes, boardStatus } from './routes/bitcoin.js';
import { blockRoutes } from './routes/blocks.js';
import { entityRoutes } from './routes/entities.js';
import { infoRoutes } from './routes/info.js';
import { priceRoutes } from './routes/prices.js';
import type { RouteContext } from './routes/route.js';
import { type BoardFeed, createDemoServer, WEBHOOK_PATH } from './server.js';

export interface DemoOptions extends DemoConfig {
  /** Folder for the board's SQLite file and the emulator's state (one subfolder per mode). */
  dataDir: string;
  /** Emulator seed (a fresh one each start by default). */
  seed?: number;
  log?: (message: string) => void;
}

export interface Demo {
  /** The page: `http://127.0.0.1:<port>/`. */
  url: string;
  mode: Backend['mode'];
  /** What the demo talks to, in words (never the key). */
  description: { label: string; detail: string };
  close(): Promise<void>;
}

export async function startDemo(options: DemoOptions): Promise<Demo> {
  const log = options.log ?? ((message: string) => process.stderr.write(`[demo] ${message}\n`));
  const dataDir = join(options.dataDir, options.backend.mode);
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let backend: Backend;
  try {
    backend = await startBackend(options.backend, {
      dataDir,
      ...(options.seed ? { seed: options.seed } : {}),
    });
  } catch (error) {
    unlock();
    throw error;
  }
  // Stopped in reverse order: the lock goes last.
  const cleanups: (() => Promise<void>)[] = [async () => unlock(), () => backend.close()];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => log(`stopping: ${(error as Error).message}`));
    }
  };
  try {
    const board = backend.webhook
      ? createBitcoinBoard({
          client: backend.client,
          dataDir,
          secret: backend.webhook.secret,
          simulator: backend.bitcoin !== undefined,
          log,
        })
      : undefined;
    if (board) cleanups.push(() => board.close());
    const context: RouteContext = { backend, board };
    const description = describeBackend(options.backend);
    const server = createDemoServer({
      routes: [
        ...infoRoutes(context, () => description),
        ...priceRoutes(context),
        ...entityRoutes(context),
        ...blockRoutes(context),
        ...bitcoinRoutes(context),
      ],
      receiver: () => context.board?.receiver,
      feed: feedOf(context),
      secrets: backend.secrets,
      log,
    });
    const url = await listen(server, options.port);
    cleanups.push(() => server.close());
    if (board && backend.webhook)
      await connectBoard(context, board, backend.webhook.url?.(`${url.slice(0, -1)}${WEBHOOK_PATH}`), log);
    return { url, mode: backend.mode, description, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * One demo per data folder: two would share the emulator's state file and the stream, and each
 * would point the stream at itself. Returns the unlock.
 */
function lockDataDir(dataDir: string): () => void {
  const lock = join(dataDir, 'demo.lock');
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(lock, 'utf8'));
  } catch {
    // No lock.
  }
  if (holder && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `Another demo (process ${holder}) is running with the data folder ${dataDir}: stop it first, or set BLOCKWIRE_DEMO_DATA_DIR to another folder.`,
    );
  }
  writeFileSync(lock, String(process.pid));
  return () => rmSync(lock, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The default port, or a free one when it is taken; a port asked for explicitly must be free. */
async function listen(
  server: ReturnType<typeof createDemoServer>,
  port: number | undefined,
): Promise<string> {
  try {
    return await server.listen(port ?? DEFAULT_PORT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (port === undefined) return server.listen(0);
    throw new Error(`Port ${port} is in use: set PORT to another one, or PORT=0 for a free one.`);
  }
}

/**
 * Points the demo stream at the receiver. On the real service a refusal (a bad secret, a URL it
 * cannot reach) turns the board off with the reason, and the rest of the demo works on.
 */
async function connectBoard(
  context: RouteContext,
  board: BitcoinBoard,
  webhookUrl: string | undefined,
  log: (message: string) => void,
): Promise<void> {
  if (!webhookUrl) return;
  try {
    await board.connect(webhookUrl);
  } catch (error) {
    if (context.backend.mode === 'emulator') throw error;
    const reason = `The live board is off: the demo stream could not be set up. ${toProblem(error, 'the demo stream').message}`;
    log(reason);
    await board.close();
    context.board = undefined;
    context.boardOff = reason;
  }
}

function feedOf(context: RouteContext): BoardFeed {
  return {
    snapshot: () => ({ rows: context.board?.rows() ?? [], status: boardStatus(context), size: BOARD_SIZE }),
    subscribe: (listener) => context.board?.subscribe(listener) ?? (() => {}),
  };
}
