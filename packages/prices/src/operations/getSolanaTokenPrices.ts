import {
  AdaptiveConcurrency,
  assertClient,
  type CallOptions,
  type Client,
  defineEndpoint,
  defineOperation,
  mapInChunks,
  resolveCallOptions,
  sendOperation,
  ValidationError,
  validateInput,
  withMeta,
} from '@blockwire/core/operations';
import * as z from 'zod/v4/mini';
import { type SolanaTokenPrice, solanaAddress, solanaNetwork, solanaTokenPricesSchema } from '../schemas.js';

/** The most addresses the service takes in one call. */
export const SOLANA_PRICES_MAX_ADDRESSES = 100;
/**
 * How many calls `getSolanaTokenPrices` keeps in flight by default: 10,000 addresses take 13
 * round trips instead of 100. If a plan allows fewer, a 429 lowers the number in flight (see
 * `GetSolanaTokenPricesOptions.concurrency`) and successes raise it again, one at a time.
 */
export const SOLANA_PRICES_DEFAULT_CONCURRENCY = 8;

// Each definition below is marked pure: a bundle that calls only getEvmTokenPrice drops them all,
// and the Solana address check and base58 with them (a bundler cannot know these calls are pure).
const network = /* @__PURE__ */ withMeta(solanaNetwork, { description: 'The Solana cluster: mainnet (default) or devnet.' });

// The metadata comes last on each schema: zod 3.25's `zod/v4` (the copy n8n ships) does not carry
// metadata over to a schema derived with `.max()`, so a description set before it would be lost.
const addressesMeta = {
  description:
    'The token mint addresses (base58). Any number: the SDK sends them 100 a request; duplicates are sent once.',
  examples: [
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'JUPyiwrAGVj5bgFTmpYoRs7tUZbWzVYtDiqjgYz3f7jx'],
  ],
};

/** Any number of token addresses, at least one. */
const addresses = /* @__PURE__ */ z
  .array(solanaAddress, { error: 'must be a list of addresses' })
  .check(/* @__PURE__ */ z.minLength(1, { error: 'must hold at least one address' }));

// A template literal may call toString, so a bundler keeps the call it is an argument of: built
// here, once, the message leaves the definitions below free to drop.
const TOO_MANY_FOR_ONE_CALL = `must hold at most ${SOLANA_PRICES_MAX_ADDRESSES} addresses per call`;

/** One wire call: 1 to 100 addresses. */
export const solanaTokenPricesCallInput = /* @__PURE__ */ z.strictObject({
  network,
  addresses: /* @__PURE__ */ withMeta(
    /* @__PURE__ */ addresses.check(
      /* @__PURE__ */ z.maxLength(SOLANA_PRICES_MAX_ADDRESSES, { error: TOO_MANY_FOR_ONE_CALL }),
    ),
    addressesMeta,
  ),
});

/** What `getSolanaTokenPrices` accepts: any number of addresses, at least one. */
export const getSolanaTokenPricesInput = /* @__PURE__ */ z.strictObject({
  network,
  addresses: /* @__PURE__ */ withMeta(addresses, addressesMeta),
});
export type GetSolanaTokenPricesInput = z.input<typeof getSolanaTokenPricesInput>;

/**
 * USDC on Solana, the example's token. A public mint address; held in a constant because n8n's
 * secret scanner takes a long literal under a `token…` key for a credential.
 */
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** The service call itself. Read-only, so safe to retry although it is a POST. */
export const getSolanaTokenPricesOperation = /* @__PURE__ */ defineOperation({
  id: 'getSolanaTokenPrices',
  resource: 'tokenPrice',
  action: 'getSolana',
  displayName: 'Get Solana Token Prices',
  summary: 'Get the USD prices of Solana tokens (the service takes 100 a request)',
  chunking: { field: 'addresses', size: SOLANA_PRICES_MAX_ADDRESSES },
  examples: [
    {
      input: { network: 'mainnet', addresses: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'] },
      response: [
        {
          tokenAddress: USDC_MINT,
          pairAddress: 'A93KYm4iuqqts3nT9xXpXW34EgKyZKA2jr6xQQCyVc4X',
          usdPrice: 1,
          exchangeAddress: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
          exchangeName: 'Raydium AMM v4',
          name: 'USD Coin',
          symbol: 'USDC',
          score: 95,
          usdPrice24h: 1.001913356,
          usdPrice24hrUsdChange: -0.001913356,
          usdPrice24hrPercentChange: -0.19097,
          isVerifiedContract: true,
        },
      ],
    },
  ],
  api: 'solana',
  method: 'POST',
  path: '/token/{network}/prices',
  input: solanaTokenPricesCallInput,
  fields: { network: 'path', addresses: 'body' },
  response: solanaTokenPricesSchema,
  idempotent: true,
  // A POST only because a list of addresses is long: it reads.
  readOnly: true,
});

export interface GetSolanaTokenPricesOptions extends CallOptions {
  /**
   * Most calls in flight at once. Default 8 (`SOLANA_PRICES_DEFAULT_CONCURRENCY`). A 429 lowers
   * the number in flight: to the most the service served at once when the refused call went out
   * above that, else to half. A call refused while others were in flight is sent again as soon as
   * there is room, once; a second 429, or one with nothing else in flight, waits its
   * `Retry-After`. Each run of successes as long as the number raises it by one, up to this.
   */
  concurrency?: number;
}

/**
 * USD prices for any number of Solana tokens: one entry per distinct address the service has a
 * price for, in the order the addresses first appear. More than 100 addresses are split into
 * calls of at most 100, a few in flight at once; if one call fails, the whole call fails.
 */
export async function getSolanaTokenPrices(
  client: Client,
  input: GetSolanaTokenPricesInput,
  options: GetSolanaTokenPricesOptions = {},
): Promise<SolanaTokenPrice[]> {
  assertClient(client, getSolanaTokenPricesOperation.id);
  const { network, addresses } = validateInput(getSolanaTokenPricesInput, input, {
    operation: getSolanaTokenPricesOperation.id,
  });
  const { signal } = resolveCallOptions({ signal: options.signal }, getSolanaTokenPricesOperation.id);
  const concurrency = options.concurrency ?? SOLANA_PRICES_DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ValidationError([{ path: 'concurrency', message: 'must be an integer >= 1' }], {
      subject: `options of ${getSolanaTokenPricesOperation.id}`,
    });
  }
  // zod's output is a new array: used as it is when it holds no duplicate (the usual list).
  const unique = new Set(addresses);
  const distinct = unique.size === addresses.length ? addresses : [...unique];
  // The chunks' attempts share one adaptive limit; a chunk waiting to retry holds none of it.
  const attemptSlots = new AdaptiveConcurrency(concurrency);
  const prices = await mapInChunks(
    distinct,
    { size: SOLANA_PRICES_MAX_ADDRESSES, concurrency },
    // Each chunk is part of the input validated above: it is sent without checking it again.
    (addressChunk) =>
      sendOperation(
        client,
        getSolanaTokenPricesOperation,
        { network, addresses: addressChunk },
        signal,
        attemptSlots,
      ),
  );
  // The usual answer: a price for each address, in the order asked. It is the result as it is.
  if (answersInOrder(prices, distinct)) return prices;
  // The service may answer in any order and leaves out tokens it has no price for.
  const byAddress = new Map<string, SolanaTokenPrice>();
  for (const price of prices) {
    if (typeof price.tokenAddress === 'string' && !byAddress.has(price.tokenAddress)) {
      byAddress.set(price.tokenAddress, price);
    }
  }
  return distinct.flatMap((address): SolanaTokenPrice[] => {
    const price = byAddress.get(address);
    return price ? [price] : [];
  });
}

/** Whether `prices` holds one price for each of `addresses` (distinct), in the same order. */
function answersInOrder(prices: readonly SolanaTokenPrice[], addresses: readonly string[]): boolean {
  if (prices.length !== addresses.length) return false;
  for (let i = 0; i < prices.length; i++) if (prices[i]!.tokenAddress !== addresses[i]) return false;
  return true;
}

/** The endpoint: the service call above, and the SDK function that spreads the list across it. */
export const getSolanaTokenPricesEndpoint = /* @__PURE__ */ defineEndpoint(getSolanaTokenPricesOperation, {
  input: getSolanaTokenPricesInput,
  call: getSolanaTokenPrices,
});
