import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../servers.ts';
import { dispatchJson, textOf } from './undici-dispatch.ts';

describe('dispatchJson', () => {
  let server: RunningServer;
  let pool: Pool;
  beforeAll(async () => {
    server = await listen((req, res) => {
      if (req.url === '/missing') {
        res.writeHead(404).end('{}');
        return;
      }
      // Two writes with a pause between: the client gets the body in more than one chunk.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"usdPrice":');
      setTimeout(() => res.end('1.5}'), 20);
    });
    pool = new Pool(server.url);
  });
  afterAll(async () => {
    await pool.close();
    await server.close();
  });

  it('parses a body that came in several chunks', async () => {
    await expect(dispatchJson(pool, { origin: server.url, path: '/', method: 'GET' })).resolves.toEqual({
      usdPrice: 1.5,
    });
  });

  it('rejects an answer that is not a 200', async () => {
    await expect(dispatchJson(pool, { origin: server.url, path: '/missing', method: 'GET' })).rejects.toThrow(
      'status 404',
    );
  });
});

describe('textOf', () => {
  it('decodes one chunk as it is and joins several', () => {
    expect(textOf([], 0)).toBe('');
    expect(textOf([Buffer.from('ab')], 2)).toBe('ab');
    // A character split between two chunks decodes only once they are joined.
    const split = Buffer.from('éx');
    expect(textOf([split.subarray(0, 1), split.subarray(1)], split.length)).toBe('éx');
  });
});
