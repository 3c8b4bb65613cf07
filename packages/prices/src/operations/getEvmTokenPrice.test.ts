import { NotFoundError, ResponseValidationError, ValidationError, validateInput } from '@blockwire/core';
import { inputFromRequest, matchPath } from '@blockwire/core/internal';
import { API_KEY, useServer } from '@blockwire/testing/sdk';
import { describe, expect, it } from 'vitest';
import { getEvmTokenPriceOperation } from './definitions.js';
import { getEvmTokenPrice } from './getEvmTokenPrice.js';

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';

const fullPrice = {
  tokenName: 'Wrapped Ether',
  tokenSymbol: 'WETH',
  tokenLogo: 'https://logo.example/weth.png',
  tokenDecimals: '18',
  nativePrice: { value: '1000000000000000000', decimals: 18, name: 'Ether', symbol: 'ETH', address: WETH },
  usdPrice: 3421.518262,
  usdPriceFormatted: '3421.518262',
  '24hrPercentChange': '-1.84',
  exchangeAddress: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
  exchangeName: 'Uniswap v3',
  tokenAddress: WETH.toLowerCase(),
  toBlock: '21000000',
  possibleSpam: false,
  verifiedContract: true,
  pairAddress: '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640',
  pairTotalLiquidityUsd: '183021877.42',
  usdPrice24h: 3485.7,
  usdPrice24hrUsdChange: -64.18,
  usdPrice24hrPercentChange: -1.84,
  securityScore: 88,
};

const t = useServer(() => ({ body: fullPrice }));

describe('getEvmTokenPrice request', () => {
  it('sends every option under its wire name, the chain as its hex id, and the key header', async () => {
    await getEvmTokenPrice(t.client, {
      address: WETH,
      chain: 'polygon',
      exchange: 'uniswapv3',
      toBlock: 21000000,
      maxTokenInactivity: 2.5,
      minPairSideLiquidityUsd: 1000,
    });
    expect(t.server.requests).toHaveLength(1);
    const [request] = t.server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe(`/api/v2.2/erc20/${WETH}/price`);
    expect(request!.query).toEqual({
      chain: ['0x89'],
      exchange: ['uniswapv3'],
      to_block: ['21000000'],
      max_token_inactivity: ['2.5'],
      min_pair_side_liquidity_usd: ['1000'],
    });
    expect(request!.headers['x-api-key']).toBe(API_KEY);
    expect(request!.body).toBe('');
  });

  it('sends only the address when nothing else is given (the service defaults to eth)', async () => {
    await getEvmTokenPrice(t.client, { address: WETH.toLowerCase() });
    expect(t.server.requests[0]!.url).toBe(`/api/v2.2/erc20/${WETH.toLowerCase()}/price`);
  });

  it.each([
    ['eth', '0x1'],
    ['0x89', '0x89'],
    [137, '0x89'],
    ['137', '0x89'],
    ['bsc testnet', '0x61'],
    ['BASE', '0x2105'],
  ])('accepts chain %j and sends %s', async (chain, hexId) => {
    await getEvmTokenPrice(t.client, { address: WETH, chain });
    expect(t.server.requests[0]!.query.chain).toEqual([hexId]);
  });

  it('accepts numbers as digit strings, as they arrive in a query string', async () => {
    await getEvmTokenPrice(t.client, {
      address: WETH,
      toBlock: '17' as unknown as number,
      maxTokenInactivity: '3' as unknown as number,
    });
    expect(t.server.requests[0]!.query).toEqual({ to_block: ['17'], max_token_inactivity: ['3'] });
  });

  it('never sends the deprecated include parameter', async () => {
    await getEvmTokenPrice(t.client, { address: WETH, chain: 'eth', toBlock: 0 });
    expect(t.server.requests[0]!.query).toEqual({ chain: ['0x1'], to_block: ['0'] });
    expect(t.server.requests[0]!.url).not.toContain('include');
  });
});

describe('getEvmTokenPrice input rules', () => {
  it.each([
    ['address', { address: '0x123' }],
    ['address', { address: `${WETH}00` }],
    ['address', { address: 'C02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' }],
    ['address', { address: '0xZZ2aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' }],
    ['address', {}],
    ['chain', { address: WETH, chain: 'ethereum-classic' }],
    ['chain', { address: WETH, chain: 999999 }],
    ['exchange', { address: WETH, exchange: '' }],
    ['toBlock', { address: WETH, toBlock: -1 }],
    ['toBlock', { address: WETH, toBlock: 1.5 }],
    ['toBlock', { address: WETH, toBlock: 'latest' }],
    ['maxTokenInactivity', { address: WETH, maxTokenInactivity: -1 }],
    ['maxTokenInactivity', { address: WETH, maxTokenInactivity: 'soon' }],
    ['minPairSideLiquidityUsd', { address: WETH, minPairSideLiquidityUsd: -0.01 }],
    ['minPairSideLiquidityUsd', { address: WETH, minPairSideLiquidityUsd: Number.POSITIVE_INFINITY }],
  ])('rejects a bad %s before any request', async (field, input) => {
    const error = await getEvmTokenPrice(t.client, input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toContain(field);
    expect((error as ValidationError).message).toContain(field);
    expect(t.server.requests).toHaveLength(0);
  });

  it('rejects an unknown field such as the deprecated include, naming it', async () => {
    const error = await getEvmTokenPrice(t.client, {
      address: WETH,
      include: 'percent_change',
    } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('include');
    expect(t.server.requests).toHaveLength(0);
  });

  it('lists the valid chains when the chain is unknown', async () => {
    const error = await getEvmTokenPrice(t.client, { address: WETH, chain: 'solana' }).catch(
      (e: unknown) => e,
    );
    expect((error as ValidationError).message).toMatch(/unknown chain "solana".*polygon \(0x89\)/);
  });
});

describe('getEvmTokenPrice response', () => {
  it('parses a realistic full body, keeping unknown fields', async () => {
    t.server.respond = () => ({ body: { ...fullPrice, blockTimestamp: '1729000000000' } });
    const price = await getEvmTokenPrice(t.client, { address: WETH });
    expect(price).toEqual({ ...fullPrice, blockTimestamp: '1729000000000' });
    expect(price['24hrPercentChange']).toBe('-1.84');
  });

  it('parses a minimal body with only the required fields', async () => {
    t.server.respond = () => ({ body: { usdPrice: 0.0001, possibleSpam: true, verifiedContract: false } });
    expect(await getEvmTokenPrice(t.client, { address: WETH })).toEqual({
      usdPrice: 0.0001,
      possibleSpam: true,
      verifiedContract: false,
    });
  });

  it('accepts null for optional fields', async () => {
    t.server.respond = () => ({
      body: {
        usdPrice: 1,
        possibleSpam: false,
        verifiedContract: true,
        tokenLogo: null,
        securityScore: null,
      },
    });
    const price = await getEvmTokenPrice(t.client, { address: WETH });
    expect(price.tokenLogo).toBeNull();
  });

  it('returns the price when the optional securityScore is out of its documented 0-100 range', async () => {
    t.server.respond = () => ({
      body: { usdPrice: 2.5, possibleSpam: false, verifiedContract: true, securityScore: 101 },
    });
    const price = await getEvmTokenPrice(t.client, { address: WETH });
    expect(price.usdPrice).toBe(2.5);
    expect(price.securityScore).toBe(101);
  });

  it.each([
    ['usdPrice', { possibleSpam: false, verifiedContract: true }],
    ['usdPrice', { usdPrice: '3421.5', possibleSpam: false, verifiedContract: true }],
    ['possibleSpam', { usdPrice: 1, verifiedContract: true }],
    ['verifiedContract', { usdPrice: 1, possibleSpam: false }],
    ['securityScore', { usdPrice: 1, possibleSpam: false, verifiedContract: true, securityScore: 'high' }],
  ])('reports a broken %s as a ResponseValidationError', async (field, body) => {
    t.server.respond = () => ({ body });
    const error = await getEvmTokenPrice(t.client, { address: WETH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain(field);
  });

  it('passes the caller signal: an aborted call sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the caller'));
    await expect(
      getEvmTokenPrice(t.client, { address: WETH }, { signal: controller.signal }),
    ).rejects.toThrow('cancelled by the caller');
    expect(t.server.requests).toHaveLength(0);
  });

  it('maps a 404 to NotFoundError with the service message', async () => {
    t.server.respond = () => ({ status: 404, body: { message: 'No pools found with enough liquidity' } });
    const error = await getEvmTokenPrice(t.client, { address: WETH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).serviceMessage).toBe('No pools found with enough liquidity');
  });
});

describe('getEvmTokenPriceOperation', () => {
  it('validates a request as the emulator receives it (query values as strings)', () => {
    const params = matchPath(getEvmTokenPriceOperation, `/erc20/${WETH}/price`);
    expect(params).toEqual({ address: WETH });
    const raw = inputFromRequest(getEvmTokenPriceOperation, {
      params: params!,
      query: {
        chain: '0x89',
        to_block: '123',
        max_token_inactivity: '1.5',
        min_pair_side_liquidity_usd: '0',
      },
      body: undefined,
    });
    expect(validateInput(getEvmTokenPriceOperation.input, raw)).toEqual({
      address: WETH,
      chain: '0x89',
      toBlock: 123,
      maxTokenInactivity: 1.5,
      minPairSideLiquidityUsd: 0,
    });
  });
});
