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

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The digit (0 to 57) of each base58 character by its code; -1 for the other ASCII codes. */
const BASE58_DIGITS = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE58_ALPHABET.length; i++) BASE58_DIGITS[BASE58_ALPHABET.charCodeAt(i)] = i;
const LIMB = 2 ** 32;
/** The value being read by `isSolanaAddress`, 32 bits a limb, least significant first. */
const limbs = new Float64Array(SOLANA_ADDRESS_BYTES / 4);

/**
 * Whether `text` is base58 of 32 to 44 characters that decodes to exactly 32 bytes: the same
 * answer as the regex and the decoder below, in one pass and without their arrays (a call of
 * 10,000 addresses checks them all before sending any, so this is on the call's path). Decoding
 * base58 is reading a base-58 number: each leading `1` is a zero byte, the rest is the value,
 * read here three digits at a time (58³ × 2³² stays below 2⁵³, so every step is exact).
 * schemas.test.ts holds it to the decoder on random and edge-case input.
 */
export function isSolanaAddress(text: string): boolean {
  const length = text.length;
  if (length < 32 || length > 44) return false;
  // Leading zero digits are zero bytes; the last digit is always part of the value (the
  // decoder reads "1111…1" as zero bytes and one zero byte of value).
  let zeros = 0;
  while (zeros < length - 1 && text.charCodeAt(zeros) === 49) zeros++;
  let used = 0;
  let i = zeros;
  let group = (length - zeros) % 3 || 3;
  while (i < length) {
    let value = 0;
    let factor = 1;
    for (const end = i + group; i < end; i++) {
      const code = text.charCodeAt(i);
      const digit = code < 128 ? BASE58_DIGITS[code]! : -1;
      if (digit < 0) return false;
      value = value * 58 + digit;
      factor *= 58;
    }
    group = 3;
    let carry = value;
    for (let k = 0; k < used; k++) {
      const x = limbs[k]! * factor + carry;
      carry = Math.floor(x / LIMB);
      limbs[k] = x - carry * LIMB;
    }
    if (carry > 0) {
      // A value past 32 bytes.
      if (used === limbs.length) return false;
      limbs[used++] = carry;
    }
  }
  if (used === 0) return zeros + 1 === SOLANA_ADDRESS_BYTES;
  const top = limbs[used - 1]!;
  const valueBytes = (used - 1) * 4 + (top >= 2 ** 24 ? 4 : top >= 2 ** 16 ? 3 : top >= 2 ** 8 ? 2 : 1);
  return zeros + valueBytes === SOLANA_ADDRESS_BYTES;
}

/**
 * A Solana address: base58 text that decodes to exactly 32 bytes. The alphabet and length are
 * checked first (a bounded regex, linear in the input), so a long string never reaches the decoder.
 */
export const solanaAddress = z.string({ error: 'must be a string' }).check((ctx) => {
  const text = ctx.value;
  // The usual address, without the decoder; anything else is looked at again for the message.
  if (isSolanaAddress(text)) return;
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
