import { base58 } from '@scure/base';
import * as z from 'zod/v4/mini';

/** Optional fields may also arrive as `null` from the real service; both mean "not known". */
const optionalString = z.nullish(z.string());
const optionalNumber = z.nullish(z.number());

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
  nativePrice: z.nullish(z.looseObject({})),
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
// The Solana schemas are marked pure, as the operation that uses them is (getSolanaTokenPrices.ts).
export const solanaTokenPriceSchema = /* @__PURE__ */ z.looseObject({
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
  isVerifiedContract: z.nullish(z.boolean()),
  /** The price in SOL: `value` in base units of `decimals` (lamports: 9). Not in every answer. */
  nativePrice: z.nullish(
    z.looseObject({
      value: optionalString,
      decimals: optionalNumber,
      name: optionalString,
      symbol: optionalString,
    }),
  ),
});
export type SolanaTokenPrice = z.output<typeof solanaTokenPriceSchema>;

export const solanaTokenPricesSchema = /* @__PURE__ */ z.array(solanaTokenPriceSchema);

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Bytes of an ed25519 public key or a program-derived address. */
const SOLANA_ADDRESS_BYTES = 32;

/** Whether each ASCII code is a base58 character. */
const IS_BASE58 = /* @__PURE__ */ Uint8Array.from({ length: 128 }, (_, code) =>
  '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'.includes(String.fromCharCode(code)) ? 1 : 0,
);

/** Per byte count b (1 to 32): the base58 of the smallest and of the largest b-byte value. */
let byteCountBounds: { smallest: string[]; largest: string[] } | undefined;

function boundsOfByteCounts() {
  if (byteCountBounds) return byteCountBounds;
  const smallest: string[] = [];
  const largest: string[] = [];
  for (let b = 1; b <= SOLANA_ADDRESS_BYTES; b++) {
    smallest[b] = base58.encode(Uint8Array.from({ length: b }, (_, i) => (i === 0 ? 1 : 0)));
    largest[b] = base58.encode(new Uint8Array(b).fill(255));
  }
  byteCountBounds = { smallest, largest };
  return byteCountBounds;
}

/**
 * Compares the base58 number `text` holds from `from` on with `digits` (neither with a leading
 * `1`): the longer is larger, and of two as long, the first digit that differs decides; base58's
 * alphabet is in ASCII order, so comparing character codes compares digits.
 */
function compareDigits(text: string, from: number, digits: string): number {
  const length = text.length - from;
  if (length !== digits.length) return length - digits.length;
  for (let i = 0; i < length; i++) {
    const difference = text.charCodeAt(from + i) - digits.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Whether `text` is base58 of 32 to 44 characters that decodes to exactly 32 bytes: the same
 * answer as the pattern and the decoder below, without decoding (a call of 10,000 addresses
 * checks them all before sending any, so this is on the call's path). Each leading `1` is a zero
 * byte; the rest is a number, which takes the bytes left when it lies between the smallest and
 * the largest number of that many bytes. schemas.test.ts holds it to the decoder.
 */
export function isSolanaAddress(text: string): boolean {
  const length = text.length;
  if (length < 32 || length > 44) return false;
  // The decoder reads all `1`s as zero bytes and one zero byte of value: the last is the value.
  let zeros = 0;
  while (zeros < length - 1 && text.charCodeAt(zeros) === 49) zeros++;
  for (let i = zeros; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || IS_BASE58[code] === 0) return false;
  }
  if (zeros === length - 1 && text.charCodeAt(zeros) === 49) return length === SOLANA_ADDRESS_BYTES;
  const valueBytes = SOLANA_ADDRESS_BYTES - zeros;
  if (valueBytes < 1) return false;
  const { smallest, largest } = boundsOfByteCounts();
  return (
    compareDigits(text, zeros, smallest[valueBytes]!) >= 0 &&
    compareDigits(text, zeros, largest[valueBytes]!) <= 0
  );
}

export const solanaAddress = /* @__PURE__ */ z.string({ error: 'must be a string' }).check((ctx) => {
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

export const solanaNetwork = /* @__PURE__ */ z._default(
  /* @__PURE__ */ z.enum(SOLANA_NETWORKS, { error: `must be one of: ${SOLANA_NETWORKS.join(', ')}` }),
  'mainnet',
);
