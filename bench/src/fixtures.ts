/** Bodies shaped like the contract's: a full EVM token price, Solana prices, webhook deliveries. */
import { base58 } from '@scure/base';

export const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
export const API_KEY = 'bench-api-key-0123456789abcdef';
export const WEBHOOK_SECRET = 'bench-webhook-secret';

/** Every field of EvmTokenPrice, as the service sends them. */
export const evmTokenPrice = {
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
  tokenAddress: USDC.toLowerCase(),
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

/** `count` distinct Solana addresses: base58 of 32 bytes each, deterministic. */
export function solanaAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const bytes = new Uint8Array(32);
    new DataView(bytes.buffer).setUint32(0, i + 1);
    bytes[31] = 7;
    return base58.encode(bytes);
  });
}

export function solanaPrice(address: string) {
  return {
    tokenAddress: address,
    pairAddress: 'A93KYm4iuqqts3nT9xXpXW34EgKyZKA2jr6xQQCyVc4X',
    usdPrice: 1.0002,
    exchangeAddress: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
    exchangeName: 'Raydium AMM v4',
    name: 'Token',
    symbol: 'TKN',
    score: 80,
    usdPrice24h: 1.0,
    usdPrice24hrUsdChange: 0.0002,
    usdPrice24hrPercentChange: 0.02,
    isVerifiedContract: true,
  };
}

const hex = (i: number, length: number, fill = 'a') => i.toString(16).padStart(length, fill);

/** A Bitcoin block delivery with `count` transactions, shaped like the contract's payload. */
export function bitcoinDelivery(count: number) {
  const transactions = Array.from({ length: count }, (_, i) => ({
    txid: hex(i, 64, 'f'),
    value: 1.51234567,
    fee: 0.00001234,
    vin: [{ txid: hex(i, 64, 'e'), vout: 1, address: null, value: null }],
    vout: [
      {
        value: 0.01234567,
        n: 0,
        addresses: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
        scriptPubKey: { type: 'witness_v0_keyhash', hex: `0014${hex(i, 40, 'c')}` },
      },
      {
        value: 1.5,
        n: 1,
        addresses: ['bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
        scriptPubKey: { type: 'witness_v0_keyhash' },
      },
    ],
  }));
  return {
    streamId: '5b1c8a52-6e0e-4a5f-9d1b-2f1a5d6c7e80',
    chainId: 'mainnet',
    tag: 'bench',
    confirmed: true,
    retries: 0,
    block: { height: '870001', hash: `00000000000000000001${'ab'.repeat(22)}`, timestamp: 1730000000 },
    transactions,
  };
}

/** An EVM stream delivery with `count` ERC-20 transfers (and their logs and transactions). */
export function evmDelivery(count: number) {
  const address = (i: number, fill: string) => `0x${hex(i, 40, fill)}`;
  const hash = (i: number, fill: string) => `0x${hex(i, 64, fill)}`;
  return {
    confirmed: false,
    chainId: '0x1',
    abi: [],
    streamId: 'c28d9e2e-ae9d-4fe6-9ca9-2f6b8f4d5b1a',
    tag: 'bench',
    retries: 0,
    block: { number: '21000000', hash: hash(1, 'b'), timestamp: '1730000000' },
    logs: Array.from({ length: count }, (_, i) => ({
      logIndex: String(i),
      transactionHash: hash(i, 'c'),
      address: USDC.toLowerCase(),
      data: `0x${hex(i * 1000, 64, '0')}`,
      topic0: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      topic1: `0x000000000000000000000000${hex(i, 40, '1')}`,
      topic2: `0x000000000000000000000000${hex(i, 40, '2')}`,
      topic3: null,
    })),
    txs: Array.from({ length: count }, (_, i) => ({
      hash: hash(i, 'c'),
      gas: '60000',
      gasPrice: '12000000000',
      nonce: String(i),
      input: '0xa9059cbb',
      transactionIndex: String(i),
      fromAddress: address(i, '1'),
      toAddress: USDC.toLowerCase(),
      value: '0',
      type: '2',
      receiptCumulativeGasUsed: '1000000',
      receiptGasUsed: '51000',
      receiptStatus: '1',
    })),
    txsInternal: [],
    erc20Transfers: Array.from({ length: count }, (_, i) => ({
      transactionHash: hash(i, 'c'),
      logIndex: String(i),
      contract: USDC.toLowerCase(),
      from: address(i, '1'),
      to: address(i, '2'),
      value: String(i * 1000),
      tokenName: 'USD Coin',
      tokenSymbol: 'USDC',
      tokenDecimals: '6',
      valueWithDecimals: String(i / 1000),
    })),
    erc20Approvals: [],
    nftTransfers: [],
    nativeBalances: [],
  };
}

/** The count that makes a delivery about `bytes` long once serialized. */
export function countForSize(make: (count: number) => unknown, bytes: number): number {
  const perItem = (JSON.stringify(make(100)).length - JSON.stringify(make(0)).length) / 100;
  return Math.max(1, Math.round((bytes - JSON.stringify(make(0)).length) / perItem));
}
