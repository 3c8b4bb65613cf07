import { describe, expect, it } from 'vitest';
import type { EmulatorInChild } from './child-servers.ts';
import { listenInChild } from './servers.ts';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('the emulator in a child process', () => {
  it('says where each interface is and the key it takes, answers there, and ends on close()', async () => {
    const emulator = await listenInChild<EmulatorInChild>('emulator');
    let closed = false;
    try {
      expect(emulator.url).toBe(emulator.control);
      const price = (apiKey: string) =>
        fetch(`${emulator.urls.solana}/token/mainnet/prices`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ addresses: [USDC] }),
        });
      const answer = await price(emulator.apiKey);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual([expect.objectContaining({ tokenAddress: USDC })]);
      expect((await price('not-the-key')).status).toBe(401);
      await emulator.close();
      closed = true;
      await expect(fetch(`${emulator.control}/requests`)).rejects.toThrow();
    } finally {
      if (!closed) await emulator.close();
    }
  });
});
