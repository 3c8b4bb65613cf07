/**
 * The PostgreSQL store's dealings with connections that drop while the process lives (a server
 * restart, `idle_session_timeout`, a pooler or a NAT closing an idle connection): which errors
 * mean "the connection is gone, run it again", and the owner session the store keeps.
 */
import { publish } from './events.js';
import type { PostgresTxStoreSql } from './postgres-sql.js';

type Row = Record<string, unknown>;

/** What the store uses of a `pg.Client` (a pool's client): structural, so no types of `pg` leak into yours. */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'error' | 'end', listener: (...args: unknown[]) => void): unknown;
}

/** What the store uses of a `pg.Pool`. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
  connect(): Promise<PostgresClient>;
  end(): Promise<void>;
}

type ErrorListeners = { on(event: 'error', listener: (error: Error) => void): unknown };
type AcquireEvents = { on(event: 'acquire', listener: (client: ErrorListeners) => void): unknown };

/**
 * Gives every client the pool hands out an `error` listener for its whole life. pg-pool hands a
 * client from one user to the next with none in between: a query's callback releases it to a
 * waiting `connect()` inside the socket read that brought the answer, and when the server's
 * goodbye (57P01 of a restart) came in the same read, the client emits `error` before its next
 * user can listen, and an `error` without a listener ends the process. Nothing is hidden: the
 * error still fails what runs on that connection, and the pool drops it.
 */
export function guardPoolClients(db: PostgresPool): void {
  const pool = db as Partial<AcquireEvents>;
  if (typeof pool.on !== 'function') return;
  const guarded = new WeakSet<object>();
  pool.on('acquire', (client) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', () => undefined);
  });
}

/** A statement that lost to another one and changed nothing. */
const CONFLICT_CODES = new Set(['40P01', '40001']);
/**
 * The server ended the session (shutdown, restart, `idle_session_timeout`, terminated), is not
 * accepting connections yet, or the socket broke.
 */
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|not queryable|connection error|timeout exceeded when trying to connect/i;

/** Whether the error says the connection is gone (so nothing of an uncommitted statement stayed). */
export function isConnectionLost(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || CONNECTION_CODES.has(code))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** How long a statement is tried again while the server is unreachable (a restart takes a few seconds). */
const RECONNECT_FOR_MS = 15_000;

/**
 * Runs `work` again when it lost to a concurrent statement or its connection dropped. Only for
 * work that is safe to run twice: the store's statements are (each either changes nothing the
 * second time, or answers what the first time did).
 */
export async function retried<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const conflict = CONFLICT_CODES.has((error as { code?: string }).code ?? '');
      const lost = isConnectionLost(error);
      if (!(conflict && attempt < 5) && !(lost && Date.now() - started < RECONNECT_FOR_MS)) throw error;
      await sleep(Math.min(1_000, attempt * (lost ? 50 : 10)));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` on a client of the pool, listening for its `error` (else a dropped connection ends the process). */
export async function withClient<T>(
  db: PostgresPool,
  work: (client: PostgresClient) => Promise<T>,
): Promise<T> {
  const client = await db.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    const result = await work(client);
    client.removeListener('error', onError as (...args: unknown[]) => void);
    client.release();
    return result;
  } catch (error) {
    client.removeListener('error', onError as (...args: unknown[]) => void);
    client.release(broken ?? true);
    throw error;
  }
}

/** How often the owner session says it is alive: what a pooler or NAT sees as traffic, and how a dead socket is noticed. */
export const HEARTBEAT_MS = 5_000;

/** What asks a connection one statement: a client, or the owner session's queue in front of one. */
export type Queryable = Pick<PostgresClient, 'query'>;

export interface OwnerSession extends Queryable {
  owner: number;
  /** Ends the session: its lock goes with the connection. */
  close(): void;
}

/**
 * A connection kept for the store's lifetime, holding the session-level advisory lock of a new
 * owner id, so other receivers know this one is alive. It is never closed for being idle (it sets
 * its own `idle_session_timeout` to 0 and says something every `HEARTBEAT_MS`). When it breaks
 * anyway, `onLost` runs at once. With `previous` (the owner of a session that broke), the new
 * owner first takes over that owner's deliveries — this process is still handling them, so no
 * other receiver should run them again.
 */
export async function openOwnerSession(
  db: PostgresPool,
  sql: PostgresTxStoreSql,
  namespace: number,
  previous: number | undefined,
  onLost: (session: OwnerSession) => void,
): Promise<OwnerSession> {
  const client = await db.connect();
  let gone = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const query = oneAtATime(client);
  const session: OwnerSession = { query, owner: 0, close: () => lost() };
  const lost = () => {
    if (gone) return;
    gone = true;
    clearInterval(heartbeat);
    onLost(session);
    try {
      client.release(true); // dropped by the pool, which opens another when needed
    } catch {
      // Already released.
    }
  };
  // Kept for the client's whole life: a connection that breaks emits `error`, and an `error`
  // without a listener would end the process.
  client.on('error', lost);
  client.on('end', lost);
  try {
    const { rows } = await query(sql.newOwner);
    session.owner = Number(rows[0]!.owner);
    await query(sql.lockOwner, [namespace, session.owner]);
    if (previous !== undefined) await takeOver(session, sql, namespace, session.owner, previous);
  } catch (error) {
    lost();
    throw error;
  }
  let unanswered = 0;
  heartbeat = setInterval(() => {
    // A socket that died without a word (a machine or NAT gone) never answers: three beats, and it is lost.
    if (unanswered >= 3) return lost();
    unanswered++;
    query('SELECT 1').then(() => {
      unanswered--;
    }, lost);
  }, HEARTBEAT_MS);
  (heartbeat as { unref?: () => void }).unref?.();
  return session;
}

/**
 * The client's `query`, asking the next statement only once the last one has answered. Deliveries
 * arrive at once and all write on the owner session: pg 8 queues a second statement on a busy
 * client itself, with a deprecation warning in the user's log, and pg 9 will not.
 */
export function oneAtATime(client: Queryable): Queryable['query'] {
  let last: Promise<unknown> = Promise.resolve();
  return (text, values) => {
    const answer = last.then(() => client.query(text, values));
    last = answer.catch(() => undefined);
    return answer;
  };
}

/** Takes over the deliveries of `other` when its session is gone; `false` when it is alive. */
export async function takeOver(
  client: Queryable,
  sql: PostgresTxStoreSql,
  namespace: number,
  owner: number,
  other: number,
): Promise<boolean> {
  const { rows } = await client.query(sql.tryLockOwner, [namespace, other]);
  if (!rows[0]?.free) return false;
  try {
    await client.query(sql.takeOver, [owner, other]);
  } finally {
    await client.query(sql.unlockOwner, [namespace, other]);
  }
  publish('store', () => ({ store: 'postgres', event: 'takeover', owner, from: other }));
  return true;
}
