import { publish } from './events.js';
import {
  isConnectionLost,
  type OwnerSession,
  openOwnerSession,
  type PostgresPool,
  retried,
} from './postgres-connection.js';
import type { PostgresTxStoreSql } from './postgres-sql.js';

/**
 * The store's owner sessions: the current one, and a new one (a new owner, taking over what the
 * lost one held) as soon as one is lost — opened again and again while the server is away.
 */
export function ownerSessions(db: PostgresPool, sql: PostgresTxStoreSql, namespace: number) {
  let opening: Promise<OwnerSession> | undefined;
  let open: OwnerSession | undefined;
  /** The owner of the session lost last, until a new session has taken its deliveries over. */
  let lostOwner: number | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const onLost = (session: OwnerSession) => {
    if (open !== session) return;
    open = undefined;
    opening = undefined;
    lostOwner = session.owner;
    if (!closed)
      publish('store', () => ({ store: 'postgres', event: 'connection-lost', owner: session.owner }));
    reopenSoon(50);
  };

  function reopenSoon(delayMs: number): void {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      current().catch(() => reopenSoon(Math.min(1_000, delayMs * 2)));
    }, delayMs);
    (retry as { unref?: () => void }).unref?.();
  }

  function current(): Promise<OwnerSession> {
    if (closed) return Promise.reject(new Error('the PostgreSQL store is closed'));
    opening ??= openOwnerSession(db, sql, namespace, lostOwner, onLost).then(
      (session) => {
        if (closed) {
          session.close();
          throw new Error('the PostgreSQL store is closed');
        }
        open = session;
        if (lostOwner !== undefined) {
          const from = lostOwner;
          publish('store', () => ({
            store: 'postgres',
            event: 'connection-regained',
            owner: session.owner,
            from,
          }));
        }
        lostOwner = undefined;
        return session;
      },
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  }

  return {
    current,
    /** Runs `work` on the owner session; on a new one when the connection drops under it. */
    run<T>(work: (session: OwnerSession) => Promise<T>): Promise<T> {
      return retried(async () => {
        const session = await current();
        try {
          return await work(session);
        } catch (error) {
          if (isConnectionLost(error)) session.close();
          throw error;
        }
      });
    },
    /** Ends the owner session; `false` when it was closed already. */
    close(): boolean {
      if (closed) return false;
      closed = true;
      clearTimeout(retry);
      // Destroyed, not returned to the pool: the lock goes with the connection.
      open?.close();
      return true;
    },
  };
}
