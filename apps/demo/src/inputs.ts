/**
 * What each form of the page may send, checked on both sides with the same rules: the server's
 * routes parse their input with these schemas, and the page runs the `check…` functions (bundled
 * for the browser as /lib/checks.js) before it sends a form, so an ordinary mistake — a short
 * address, letters in a block number — is answered in the page, without a request, in the very
 * sentence the server would have answered. The content rules are the SDK's own input schemas;
 * this file adds only the demo's limits. Browser-safe: no Node module.
 */
import { ValidationError, validateInput } from '@blockwire/core';
import { getEvmTokenPriceInput, getSolanaTokenPricesInput } from '@blockwire/prices/operations';
import { bitcoinAddressSchema, btcToSats } from '@blockwire/streams/operations';
import * as z from 'zod/v4';
import { optionalDigits, text } from './routes/route.js';
import { validationProblem } from './sentences.js';

/** A mistake in a form: the sentence to show and the field at fault. */
export interface InputProblem {
  message: string;
  field?: string;
}

/** The SDK splits any number of Solana addresses into calls of 100; the demo caps one lookup here. */
export const MAX_SOLANA_ADDRESSES = 1000;
/** The most text one lookup may paste (1,000 addresses of 44 characters and separators fit). */
export const MAX_SOLANA_TEXT = 100_000;

/** 100000 → "100,000". */
export const grouped = (value: number) => value.toLocaleString('en-US');

export const evmPriceInput = z.strictObject({
  chain: text(40),
  address: text(100),
  toBlock: optionalDigits(),
});

export const solanaPricesInput = z.strictObject({
  addresses: z.union(
    [
      z.string().max(MAX_SOLANA_TEXT, { error: `must be at most ${grouped(MAX_SOLANA_TEXT)} characters` }),
      z
        .array(z.string().max(100, { error: 'must be at most 100 characters' }))
        .max(MAX_SOLANA_ADDRESSES, { error: `must hold at most ${grouped(MAX_SOLANA_ADDRESSES)} addresses` }),
    ],
    { error: 'must be text or a list of addresses' },
  ),
  network: z.enum(['mainnet', 'devnet'], { error: 'must be mainnet or devnet' }).default('mainnet'),
});

export const searchInput = z.strictObject({ query: text(200) });

export const watchInput = z.strictObject({ address: text(100) });

const MAX_SATS = 21_000_000n * 100_000_000n;

/** Decimal text only: btcToSats also takes what JSON numbers may be ("1e3"), which no one types as an amount. */
const BTC_DECIMAL = /^\d+(\.\d{1,8})?$/;

/** A decimal BTC amount, exact to the satoshi, more than 0 and at most 21 million. */
export const btcAmount = text(20).check((ctx) => {
  const problem = (message: string) => ctx.issues.push({ code: 'custom', input: ctx.value, message });
  if (!BTC_DECIMAL.test(ctx.value)) {
    problem('must be an amount of BTC such as 0.125, with at most 8 decimals');
    return;
  }
  const sats = btcToSats(ctx.value);
  if (sats <= 0n || sats > MAX_SATS) problem('must be more than 0 and at most 21 000 000 BTC');
});

export const sendInput = z.strictObject({ to: bitcoinAddressSchema, amountBtc: btcAmount });

/** The block number field of the blocks panel (the chain is a list to pick from). */
export const blockNumberInput = z.strictObject({ number: optionalDigits() });

/** Addresses pasted any way (lines, commas, spaces), each once, in order. */
export function splitAddresses(input: string | string[]): string[] {
  const parts = Array.isArray(input) ? input : input.split(/[\s,;]+/);
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
}

/** The Solana addresses of a lookup, or the mistake that stops it (none, or too many). */
export function solanaAddressesOf(raw: string | string[]): string[] | InputProblem {
  const addresses = splitAddresses(raw);
  if (addresses.length === 0)
    return { message: 'Paste at least one Solana token address.', field: 'addresses' };
  if (addresses.length > MAX_SOLANA_ADDRESSES) {
    return {
      message: `That is ${grouped(addresses.length)} addresses; the demo looks up at most ${grouped(MAX_SOLANA_ADDRESSES)} at once.`,
      field: 'addresses',
    };
  }
  return addresses;
}

/** Each check runs the route's schema, then the SDK's input schema of the call it makes. */
function firstProblem(...steps: Array<() => unknown>): InputProblem | undefined {
  for (const step of steps) {
    try {
      step();
    } catch (error) {
      if (error instanceof ValidationError) return validationProblem(error);
      throw error;
    }
  }
  return undefined;
}

export const checkEvmPrice = (input: { chain: string; address: string; toBlock: string }) =>
  firstProblem(() => {
    const { toBlock, ...rest } = validateInput(evmPriceInput, input);
    validateInput(getEvmTokenPriceInput, { ...rest, ...(toBlock ? { toBlock } : {}) });
  });

export function checkSolanaPrices(input: { addresses: string; network: string }): InputProblem | undefined {
  let parsed: z.output<typeof solanaPricesInput> | undefined;
  const shape = firstProblem(() => {
    parsed = validateInput(solanaPricesInput, input);
  });
  if (shape || !parsed) return shape;
  const addresses = solanaAddressesOf(parsed.addresses);
  if (!Array.isArray(addresses)) return addresses;
  const { network } = parsed;
  return firstProblem(() => validateInput(getSolanaTokenPricesInput, { network, addresses }));
}

export const checkSearch = (input: { query: string }) =>
  firstProblem(() => validateInput(searchInput, input));

export const checkWatch = (input: { address: string }) =>
  firstProblem(
    () => validateInput(watchInput, input),
    () => validateInput(z.strictObject({ address: bitcoinAddressSchema }), { address: input.address.trim() }),
  );

export const checkSend = (input: { to: string; amountBtc: string }) =>
  firstProblem(() => validateInput(sendInput, input));

export const checkBlockNumber = (input: { number: string }) =>
  firstProblem(() => validateInput(blockNumberInput, input));

export { sameBitcoinAddress } from './bitcoin-address.js';
