/** Scripted prices: `PUT /control/prices/{chain}/{address}` as the REST price endpoints reflect it. */
import { getEvmTokenPrice, getSolanaTokenPrices } from '@blockwire/prices';
import { beforeEach, describe, expect, it } from 'vitest';
import { WRAPPED_SOL } from './fixtures/solana-tokens.js';
import { call, useEmulator } from './test-support.js';

const t = useEmulator();
const LINK = '0x514910771AF9Ca656af840dff83E8264EcF986CA';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

const script = (chain: string, address: string, body: unknown) =>
  call(`${t.emu.control}/prices/${chain}/${address}`, { method: 'PUT', body });

beforeEach(async () => {
  await call(`${t.emu.control}/prices`, { method: 'DELETE' });
});

describe('PUT /control/prices/{chain}/{address}', () => {
  it('sets an EVM token price from now on, by chain name or hex id, any address case', async () => {
    const generated = await getEvmTokenPrice(t.client, { address: LINK });
    const { status, body } = await script('eth', LINK, { usd: 23.45 });
    expect(status).toBe(200);
    expect(body).toEqual({ chain: '0x1', address: LINK.toLowerCase(), series: [23.45], served: 0 });
    for (let i = 0; i < 3; i++) {
      expect((await getEvmTokenPrice(t.client, { address: LINK })).usdPrice).toBe(23.45);
    }
    expect(generated.usdPrice).not.toBe(23.45);
    await script('0x1', LINK.toLowerCase(), { usd: 30 });
    const scripted = await getEvmTokenPrice(t.client, { address: LINK, chain: 'eth' });
    expect(scripted).toMatchObject({ usdPrice: 30, usdPriceFormatted: '30', tokenSymbol: 'LINK' });
  });

  it('advances a series one step per price request of that token, then keeps the last step', async () => {
    await script('eth', LINK, { series: [{ usd: 1 }, { usd: 1.2 }, { usd: 0.9 }] });
    const other = await getEvmTokenPrice(t.client, { address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' });
    expect(other.tokenSymbol).toBe('USDT');
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push((await getEvmTokenPrice(t.client, { address: LINK })).usdPrice);
    expect(seen).toEqual([1, 1.2, 0.9, 0.9, 0.9]);
    const { body } = await call(`${t.emu.control}/prices`);
    expect(body.prices).toEqual([
      { chain: '0x1', address: LINK.toLowerCase(), series: [1, 1.2, 0.9], served: 5 },
    ]);
  });

  it('takes no step for a request the price route refused', async () => {
    await script('eth', LINK, { series: [{ usd: 1 }, { usd: 2 }] });
    await expect(
      getEvmTokenPrice(t.client, { address: LINK, minPairSideLiquidityUsd: 1e15 }),
    ).rejects.toThrow();
    expect((await getEvmTokenPrice(t.client, { address: LINK })).usdPrice).toBe(1);
  });

  it('scripts Solana mints: one batch request is one step of each mint in it', async () => {
    await script('solana', USDC_MINT, { series: [{ usd: 1 }, { usd: 0.97 }] });
    await script('solana', JUP, { usd: 1.5 });
    const prices = async () =>
      Object.fromEntries(
        (await getSolanaTokenPrices(t.client, { addresses: [USDC_MINT, JUP, WRAPPED_SOL] })).map((price) => [
          price.tokenAddress,
          price.usdPrice,
        ]),
      );
    const first = await prices();
    expect(first).toMatchObject({ [USDC_MINT]: 1, [JUP]: 1.5 });
    expect(first[WRAPPED_SOL]).toBe(192.4);
    expect(await prices()).toMatchObject({ [USDC_MINT]: 0.97, [JUP]: 1.5 });
    const [jup] = await getSolanaTokenPrices(t.client, { addresses: [JUP] });
    // The native price follows the scripted USD price: 1.5 / 192.4 SOL in lamports.
    expect(jup!.nativePrice?.value).toBe(String(Math.round((1.5 / 192.4) * 1e9)));
  });

  it('refuses bad input naming the field', async () => {
    const refused = async (chain: string, address: string, body: unknown) => {
      const answer = await script(chain, address, body);
      expect(answer.status).toBe(400);
      return answer.body.message as string;
    };
    expect(await refused('mars', LINK, { usd: 1 })).toMatch(
      /^Invalid request: chain must be one of eth, .*solana/,
    );
    expect(await refused('eth', '0x0000000000000000000000000000000000000001', { usd: 1 })).toMatch(
      /address: the emulator prices no token 0x0000000000000000000000000000000000000001 on chain 0x1/,
    );
    expect(await refused('solana', LINK, { usd: 1 })).toMatch(/address: .* on Solana/);
    expect(await refused('eth', LINK, { usd: -1 })).toBe(
      'Invalid request: usd must be a positive number of US dollars',
    );
    expect(await refused('eth', LINK, { usd: '1' })).toMatch(/usd must be a positive number/);
    expect(await refused('eth', LINK, { series: [] })).toBe(
      'Invalid request: series must hold at least one step',
    );
    expect(await refused('eth', LINK, { series: [{ usd: 1 }, { usd: 0 }] })).toMatch(
      /^Invalid request: series\.1\.usd /,
    );
    expect(await refused('eth', LINK, { series: [{ price: 1 }] })).toMatch(/unknown field\(s\) price/);
    expect(await refused('eth', LINK, {})).toMatch(/body must hold either usd .* or series/);
    expect(await refused('eth', LINK, { usd: 1, series: [{ usd: 1 }] })).toMatch(/either usd/);
    expect(await refused('eth', LINK, { usd: 1, at: 2 })).toMatch(/unknown field\(s\) at/);
    // Nothing was scripted by the refused calls.
    expect((await call(`${t.emu.control}/prices`)).body.prices).toEqual([]);
  });

  it('DELETE /control/prices returns every token to its generated price', async () => {
    const generated = (await getEvmTokenPrice(t.client, { address: LINK })).usdPrice;
    await script('eth', LINK, { usd: 99 });
    expect((await call(`${t.emu.control}/prices`, { method: 'DELETE' })).body).toEqual({ cleared: true });
    expect((await getEvmTokenPrice(t.client, { address: LINK })).usdPrice).toBe(generated);
  });
});
