/**
 * Example inputs the page offers one click away. Real tokens at their real addresses, so they
 * work the same on the emulator and on the real service.
 */
import type { TokenExample } from './views.js';

export const EVM_TOKEN_EXAMPLES: readonly TokenExample[] = [
  { label: 'USDC', chain: 'eth', address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
  { label: 'WETH', chain: 'eth', address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' },
  { label: 'LINK', chain: 'eth', address: '0x514910771AF9Ca656af840dff83E8264EcF986CA' },
  { label: 'ARB', chain: 'arbitrum', address: '0x912CE59144191C1204E64559FE8253a0e49E6548' },
  { label: 'WPOL', chain: 'polygon', address: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270' },
  { label: 'AERO', chain: 'base', address: '0x940181a94A35A4569E4529A3CDfB74e38FD98631' },
];

export const SOLANA_TOKEN_EXAMPLES: readonly { label: string; address: string }[] = [
  { label: 'SOL', address: 'So11111111111111111111111111111111111111112' },
  { label: 'USDC', address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
  { label: 'USDT', address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' },
  { label: 'BONK', address: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263' },
  { label: 'JUP', address: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN' },
  { label: 'PYTH', address: 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3' },
  { label: 'WIF', address: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm' },
];
