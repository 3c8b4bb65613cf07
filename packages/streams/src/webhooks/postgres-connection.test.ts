import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardPoolClients, oneAtATime, type PostgresPool } from './postgres-connection.js';

/** A pool as pg-pool emits its events: `acquire` with the client, before its own listener goes. */
function poolOf(): PostgresPool & EventEmitter {
  return Object.assign(new EventEmitter(), {
    query: async () => ({ rows: [], rowCount: 0 }),
    connect: async () => {
      throw new Error('not used');
    },
    end: async () => {},
  }) as unknown as PostgresPool & EventEmitter;
}

const goodbye = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('guardPoolClients', () => {
  it('keeps a client handed between two users from ending the process with its error', () => {
    const pool = poolOf();
    const client = new EventEmitter();
    // Unguarded, an error with nobody listening throws (in a socket read: the process ends).
    expect(() => client.emit('error', goodbye())).toThrow(/administrator command/);
    guardPoolClients(pool);
    pool.emit('acquire', client);
    expect(() => client.emit('error', goodbye())).not.toThrow();
  });

  it('adds one listener a client, however often it is acquired, and leaves its users their own', () => {
    const pool = poolOf();
    guardPoolClients(pool);
    const client = new EventEmitter();
    for (let i = 0; i < 5; i++) pool.emit('acquire', client);
    expect(client.listenerCount('error')).toBe(1);
    const seen: Error[] = [];
    client.on('error', (error: Error) => seen.push(error));
    client.emit('error', goodbye());
    expect(seen.map((error) => (error as { code?: string }).code)).toEqual(['57P01']);
  });

  it('leaves a pool without events as it is', () => {
    const pool = {
      query: async () => ({ rows: [], rowCount: 0 }),
      connect: async () => ({}),
      end: async () => {},
    };
    expect(() => guardPoolClients(pool as unknown as PostgresPool)).not.toThrow();
  });
});

/** A client that refuses a statement while another is unanswered, as pg 9 is to; fails `bad`. */
function strictClient() {
  let busy = false;
  const asked: string[] = [];
  return {
    asked,
    async query(text: string) {
      if (busy) throw new Error(`asked ${text} while busy`);
      busy = true;
      asked.push(text);
      await new Promise((resolve) => setTimeout(resolve, 2));
      busy = false;
      if (text === 'bad') throw new Error('bad statement');
      return { rows: [{ text }], rowCount: 1 };
    },
  };
}

describe('oneAtATime', () => {
  it('asks statements made at once one after another, in the order they came, each its own answer', async () => {
    const client = strictClient();
    const query = oneAtATime(client);
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((text) => query(text)));
    expect(answers.map(({ rows }) => rows[0]!.text)).toEqual(['a', 'b', 'c', 'd']);
    expect(client.asked).toEqual(['a', 'b', 'c', 'd']);
  });

  it('goes on after a statement that failed, and gives the failure to its caller alone', async () => {
    const client = strictClient();
    const query = oneAtATime(client);
    const settled = await Promise.allSettled(['a', 'bad', 'c'].map((text) => query(text)));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/bad statement/);
    expect(client.asked).toEqual(['a', 'bad', 'c']);
  });
});
