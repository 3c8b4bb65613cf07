/**
 * Scripted token prices (`PUT /control/prices/{chain}/{address}`): a price set now, or a series
 * that advances one step per price request of that token. Per request rather than per unit of
 * time, so a test decides exactly which poll sees which price, however slow the machine: the
 * n-th request that prices the token gets the n-th step, and the last step stays once reached.
 * A request that a fault answered never reached the price routes and takes no step.
 */
import * as z from 'zod/v4';
import { EVM_CHAIN_FIXTURES } from './fixtures/evm-tokens.js';
import { badRequest } from './handlers/define.js';

/** The chain segment that names Solana (both clusters) in the control route. */
export const SOLANA_CHAIN = 'solana';
/** The most steps a series may hold. */
export const PRICE_SERIES_MAX_STEPS = 10_000;

const usd = z
  .number({ error: 'must be a positive number of US dollars' })
  .positive({ error: 'must be a positive number of US dollars' })
  .max(1e15, { error: 'must be at most 1e15 US dollars' });
const step = z.strictObject({ usd });

/** `{ usd }` (a price from now on) or `{ series: [{ usd }, ...] }` (one step per price request). */
export const priceScriptRequestSchema = z
  .strictObject({
    usd: usd.optional(),
    series: z
      .array(step, { error: 'must be a list of { usd } steps' })
      .min(1, { error: 'must hold at least one step' })
      .max(PRICE_SERIES_MAX_STEPS, { error: `must hold at most ${PRICE_SERIES_MAX_STEPS} steps` })
      .optional(),
  })
  .refine((body) => (body.usd === undefined) !== (body.series === undefined), {
    error: 'must hold either usd (a price from now on) or series (one step per price request)',
  });
export type PriceScriptRequest = z.output<typeof priceScriptRequestSchema>;

export interface ScriptedPrice {
  /** `0x1`-style hex id for an EVM chain, `solana` for a Solana mint. */
  chain: string;
  address: string;
  series: number[];
  /** How many price requests of this token the script answered so far. */
  served: number;
}

export interface PriceScript {
  /** Scripts a token; a token the emulator does not price is refused (`RefusedRequest` 400). */
  set(chain: string, address: string, series: number[]): ScriptedPrice;
  /** The scripted price for this request of the token (taking a step), or undefined if unscripted. */
  take(chain: string, address: string): number | undefined;
  list(): ScriptedPrice[];
  clear(): void;
}

/** `${chain} ${address}` of a token the price routes know (the address lowercase for EVM). */
export const priceKeyOf = (chain: string, address: string): string => `${chain} ${address}`;

/** `priced`: the keys (`priceKeyOf`) of the tokens the price routes serve. */
export function createPriceScript(priced: ReadonlySet<string>): PriceScript {
  const scripts = new Map<string, ScriptedPrice>();
  const keyOf = priceKeyOf;
  return {
    set(chain, address, series) {
      if (!priced.has(keyOf(chain, address))) {
        throw badRequest(
          `address: the emulator prices no token ${address} on ${chain === SOLANA_CHAIN ? 'Solana' : `chain ${chain}`} (see the README's fixture tables)`,
        );
      }
      const script = { chain, address, series, served: 0 };
      scripts.set(keyOf(chain, address), script);
      return script;
    },
    take(chain, address) {
      const script = scripts.get(keyOf(chain, address));
      if (!script) return undefined;
      const price = script.series[Math.min(script.served, script.series.length - 1)]!;
      script.served++;
      return price;
    },
    list: () => [...scripts.values()].map((script) => ({ ...script, series: [...script.series] })),
    clear: () => scripts.clear(),
  };
}

/**
 * The chain of the control route as the price routes key it: an EVM chain the emulator prices, by
 * name (`eth`) or hex id (`0x1`, any case), or `solana`. Undefined for anything else.
 */
export function scriptChainOf(segment: string): string | undefined {
  const wanted = segment.toLowerCase();
  if (wanted === SOLANA_CHAIN) return SOLANA_CHAIN;
  return EVM_CHAIN_FIXTURES.find((chain) => chain.name === wanted || chain.hexId === wanted)?.hexId;
}

/** The chains the control route accepts, for its error message. */
export const SCRIPT_CHAINS: readonly string[] = [
  ...EVM_CHAIN_FIXTURES.map((chain) => chain.name),
  SOLANA_CHAIN,
];
