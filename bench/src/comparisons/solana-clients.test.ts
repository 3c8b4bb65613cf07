import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenInChild, type RunningServer } from '../servers.ts';
import { makeClient } from './solana-clients.ts';

const ADDRESSES = 300;

describe.each(['blockwire', 'undici-concurrent', 'sequential'])('the %s Solana client', (name) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await listenInChild('solana', String(ADDRESSES));
  });
  afterAll(() => server.close());

  it('prices every address and gives its time', async () => {
    const client = await makeClient(name, { serverUrl: server.url, addresses: ADDRESSES });
    try {
      expect(await client.run({ concurrency: 2, passes: 1 })).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('prices every address once a pass', async () => {
    const client = await makeClient(name, { serverUrl: server.url, addresses: ADDRESSES });
    const stats = async (path: string) => (await fetch(`${server.url}${path}`)).json();
    try {
      await stats('/__stats/reset');
      expect(await client.run({ concurrency: 3, passes: 3 })).toBeGreaterThan(0);
      expect(await stats('/__stats')).toMatchObject({ requests: 3 * (ADDRESSES / 100), refused: 0 });
    } finally {
      await client.close();
    }
  });

  it('fails a run that did not get a price for every address', async () => {
    // The server knows the first 300 addresses; a client asked for 400 gets a 400 for the rest.
    const client = await makeClient(name, { serverUrl: server.url, addresses: ADDRESSES + 100 });
    try {
      await expect(client.run({ concurrency: 2, passes: 1 })).rejects.toThrow(/400/);
    } finally {
      await client.close();
    }
  });
});
