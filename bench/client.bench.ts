/**
 * The cost of the SDK around one request: validation, URL building, auth, retry bookkeeping,
 * response parsing. Side by side with a bare undici request and the global fetch, all against
 * the same local server answering a full EvmTokenPrice body.
 */
import { createClient } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
import { startServer } from '@blockwire/testing';
import { Agent, request } from 'undici';
import { afterAll, bench, describe } from 'vitest';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const price = {
  tokenName: 'USD Coin',
  tokenSymbol: 'USDC',
  tokenLogo: 'https://example.invalid/usdc.png',
  tokenDecimals: '6',
  nativePrice: {
    value: '285000000000000',
    decimals: 18,
    name: 'Ether',
    symbol: 'ETH',
    address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  },
  usdPrice: 1.0001,
  usdPriceFormatted: '1.0001',
  '24hrPercentChange': '0.01',
  exchangeAddress: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
  exchangeName: 'Uniswap v3',
  tokenAddress: USDC,
  toBlock: '21000000',
  possibleSpam: false,
  verifiedContract: true,
  pairAddress: '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640',
  pairTotalLiquidityUsd: '250000000.5',
  usdPrice24h: 1.0,
  usdPrice24hrUsdChange: 0.0001,
  usdPrice24hrPercentChange: 0.01,
  securityScore: 92,
};

const server = await startServer(() => ({ body: price }));
const base = `${server.url}/api/v2.2`;
const client = createClient({ apiKey: 'bench-key', baseUrls: { evm: base } });
const agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
const url = `${base}/erc20/${USDC}/price?chain=0x1`;

afterAll(async () => {
  await client.close();
  await agent.close();
  await server.close();
});

describe('one EVM token price request to a local server', () => {
  bench('@blockwire/prices getEvmTokenPrice (validated, typed)', async () => {
    await getEvmTokenPrice(client, { address: USDC, chain: 'eth' });
  });

  bench('undici request + JSON.parse (no validation)', async () => {
    const response = await request(url, { headers: { 'x-api-key': 'bench-key' }, dispatcher: agent });
    JSON.parse(await response.body.text());
  });

  bench('global fetch + json() (no validation)', async () => {
    const response = await fetch(url, { headers: { 'x-api-key': 'bench-key' } });
    await response.json();
  });
});
