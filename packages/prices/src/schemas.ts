import { base58 } from '@scure/base';
import * as z from 'zod/v4';

/** Optional fields may also arrive as `null` from the real service; both mean "not known". */
const optionalString = z.string().nullish();
const optionalNumber = z.number().nullish();

/** The USD price of an ERC-20 style token on an EVM chain, with the pair and exchange it came from. */
export const evmTokenPriceSchema = z.looseObject({
  usdPrice: z.number(),
  possibleSpam: z.boolean(),
  verifiedContract: z.boolean(),
  tokenName: optionalString,
  tokenSymbol: optionalString,
  tokenLogo: optionalString,
  /** Number of decimals, as a string (e.g. `"18"`). */
  tokenDecimals: optionalString,
  /** Price in the chain's native token; the contract does not fix its inner fields. */
  nativePrice: z.looseObject({}).nullish(),
  usdPriceFormatted: optionalString,
  '24hrPercentChange': optionalString,
  exchangeAddress: optionalString,
  exchangeName: optionalString,
  tokenAddress: optionalString,
  /** The block the price refers to, as a string. */
  toBlock: optionalString,
  pairAddress: optionalString,
  pairTotalLiquidityUsd: optionalString,
  usdPrice24h: optionalNumber,
  usdPrice24hrUsdChange: optionalNumber,
  usdPrice24hrPercentChange: optionalNumber,
  /**
   * Trust level of the token, 0 to 100 by the contract. Not range-checked: an optional score out of
   * range must not cost the caller the price itself.
   */
  securityScore: optionalNumber,
});
export type EvmTokenPrice = z.output<typeof evmTokenPriceSchema>;

/** The USD price of one Solana token (one element of the Solana price response). */
export const solanaTokenPriceSchema = z.looseObject({
  tokenAddress: optionalString,
  pairAddress: optionalString,
  usdPrice: optionalNumber,
  exchangeAddress: optionalString,
  exchangeName: optionalString,
  logo: optionalString,
  name: optionalString,
  symbol: optionalString,
  score: optionalNumber,
  usdPrice24h: optionalNumber,
  usdPrice24hrUsdChange: optionalNumber,
  usdPrice24hrPercentChange: optionalNumber,
  isVerifiedContract: z.boolean().nullish(),
  /** The price in SOL: `value` in base units of `decimals` (lamports: 9). Not in every answer. */
  nativePrice: z
    .looseObject({
      value: optionalString,
      decimals: optionalNumber,
      name: optionalString,
      symbol: optionalString,
    })
    .nullish(),
});
export type SolanaTokenPrice = z.output<typeof solanaTokenPriceSchema>;

export const solanaTokenPricesSchema = z.array(solanaTokenPriceSchema);

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Bytes of an ed25519 public key or a program-derived address. */
const SOLANA_ADDRESS_BYTES = 32;

/**
 * A Solana address: base58 text that decodes to exactly 32 bytes. The alphabet and length are
 * checked first (a bounded regex, linear in the input), so a long string never reaches the decoder.
 */
export const solanaAddress = z.string({ error: 'must be a string' }).check((ctx) => {
  const text = ctx.value;
  if (!BASE58_ADDRESS.test(text)) {
    ctx.issues.push({
      code: 'custom',
      input: text,
      message: 'must be a base58 address of 32 to 44 characters',
    });
    return;
  }
  const bytes = base58.decode(text).length;
  if (bytes !== SOLANA_ADDRESS_BYTES) {
    ctx.issues.push({
      code: 'custom',
      input: text,
      message: `must be a Solana address: base58 of ${SOLANA_ADDRESS_BYTES} bytes (this one decodes to ${bytes})`,
    });
  }
});

export const SOLANA_NETWORKS = ['mainnet', 'devnet'] as const;
export type SolanaNetwork = (typeof SOLANA_NETWORKS)[number];

export const solanaNetwork = z
  .enum(SOLANA_NETWORKS, { error: `must be one of: ${SOLANA_NETWORKS.join(', ')}` })
  .default('mainnet');
