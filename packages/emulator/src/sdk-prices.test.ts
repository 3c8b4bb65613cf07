/** Every function of @blockwire/prices against the emulator, as a user would call it. */
import { NotFoundError, ValidationError } from '@blockwire/core';
import { getEvmTokenPrice, getSolanaTokenPrices } from '@blockwire/prices';
import { describe, expect, it } from 'vitest';
import { buildSolanaTokens } from './fixtures/solana-tokens.js';
import { call, useEmulator } from './test-support.js';

const t = useEmulator();

describe('getEvmTokenPrice', () => {
  it('prices the real tokens, by chain name or hex id', async () => {
    const link = await getEvmTokenPrice(t.client, { address: '0x514910771AF9Ca656af840dff83E8264EcF986CA' });
    expect(link).toMatchObject({ tokenSymbol: 'LINK', tokenName: 'ChainLink Token', verifiedContract: true });
    const op = await getEvmTokenPrice(t.client, {
      address: '0x4200000000000000000000000000000000000042',
      chain: '0xa',
    });
    expect(op.tokenSymbol).toBe('OP');
    const wbnb = await getEvmTokenPrice(t.client, {
      address: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
      chain: 'bsc',
    });
    expect(wbnb.tokenSymbol).toBe('WBNB');
  });

  it('sends every filter the way the emulator understands it', async () => {
    const weth = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
    const historical = await getEvmTokenPrice(t.client, {
      address: weth,
      chain: 'eth',
      toBlock: 20_000_000,
      exchange: 'uniswapv3',
      maxTokenInactivity: 7,
      minPairSideLiquidityUsd: 1_000,
    });
    expect(historical).toMatchObject({ toBlock: '20000000', exchangeName: 'Uniswap v3' });
    const error = await getEvmTokenPrice(t.client, { address: weth, minPairSideLiquidityUsd: 1e12 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('is a NotFoundError for a token the emulator does not know', async () => {
    const error = await getEvmTokenPrice(t.client, {
      address: '0x000000000000000000000000000000000000dEaD',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toMatch(/No pools found/);
  });
});

describe('getSolanaTokenPrices', () => {
  it('prices more than 100 tokens in chunks, in the order asked, leaving out unknown ones', async () => {
    await call(`${t.emu.control}/requests`, { method: 'DELETE' });
    const tokens = buildSolanaTokens(1).map((t) => t.address);
    const asked = [...tokens, ...tokens, ...tokens].slice(0, 150).reverse();
    const prices = await getSolanaTokenPrices(t.client, { addresses: asked });
    expect(prices.map((p) => p.tokenAddress)).toEqual([...new Set(asked)]);
    const served = (await call(`${t.emu.control}/requests?interface=solana`)).body.requests;
    expect(served.length).toBeGreaterThanOrEqual(1);
  });

  it('answers devnet too, and rejects an empty list before any request', async () => {
    const devnet = await getSolanaTokenPrices(t.client, {
      network: 'devnet',
      addresses: ['So11111111111111111111111111111111111111112'],
    });
    expect(devnet).toHaveLength(1);
    await expect(getSolanaTokenPrices(t.client, { addresses: [] })).rejects.toBeInstanceOf(ValidationError);
  });
});
