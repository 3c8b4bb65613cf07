/**
 * One poll's prices, through the SDK's operation layer: one `getEvmTokenPrice` call per EVM token,
 * and every Solana mint in one `getSolanaTokenPrices` call (the SDK splits beyond 100 a call).
 */
import { findChain, NotFoundError, ValidationError } from '@blockwire/core/operations';
import { getEvmTokenPrice, getSolanaTokenPrices } from '@blockwire/prices/operations';
import { type IPollFunctions, NodeOperationError } from 'n8n-workflow';
import { chainLabel } from '../shared/chain-label';
import { blockwireClient } from '../shared/client';
import { toNodeError } from '../shared/errors';
import type { PriceSettings } from './settings';

export interface PolledPrice {
  /** Where the trigger keeps the token's state: chain and address. */
  key: string;
  token: string;
  symbol?: string;
  /** The EVM chain's name (`eth`) or `solana`. */
  chain: string;
  /** EVM: the chain's hex id; Solana: the cluster. */
  chainId?: string;
  network?: string;
  price: number;
}

/** The key of a listed token's state: EVM addresses in any case are one token. */
export function priceKeyOf(settings: PriceSettings, token: string): string {
  if (settings.blockchain === 'solana') return `solana:${settings.network}:${token}`;
  return `evm:${findChain(settings.chain)?.hexId ?? settings.chain}:${token.toLowerCase()}`;
}

export async function pollPrices(this: IPollFunctions, settings: PriceSettings): Promise<PolledPrice[]> {
  const { client } = await blockwireClient(this);
  const node = this.getNode();
  if (settings.blockchain === 'solana') {
    const { network, mints } = settings;
    let answer: Awaited<ReturnType<typeof getSolanaTokenPrices>>;
    try {
      answer = await getSolanaTokenPrices(client, { network, addresses: mints });
    } catch (error) {
      throw toNodeError(node, error, { fieldLabel: (path) => entryLabel('Token Mint Addresses', path) });
    }
    const byMint = new Map(answer.map((price) => [price.tokenAddress, price]));
    const priced = mints.flatMap((mint): PolledPrice[] => {
      const price = byMint.get(mint);
      if (typeof price?.usdPrice !== 'number') return [];
      return [
        {
          key: priceKeyOf(settings, mint),
          token: mint,
          symbol: price.symbol ?? undefined,
          chain: 'solana',
          network,
          price: price.usdPrice,
        },
      ];
    });
    return checked.call(this, priced, mints, `Solana ${network}`);
  }
  const chain = findChain(settings.chain);
  const chainName = chain?.name ?? settings.chain;
  const results = await Promise.all(
    settings.tokens.map(async (token, index): Promise<PolledPrice | undefined> => {
      try {
        const price = await getEvmTokenPrice(client, { address: token, chain: settings.chain });
        return {
          key: priceKeyOf(settings, token),
          token,
          symbol: price.tokenSymbol ?? undefined,
          chain: chainName,
          chainId: chain?.hexId,
          price: price.usdPrice,
        };
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        if (error instanceof ValidationError) {
          throw toNodeError(node, error, {
            fieldLabel: (path) => (path === 'address' ? `Token Addresses (entry ${index + 1})` : undefined),
          });
        }
        throw toNodeError(node, error);
      }
    }),
  );
  const priced = results.filter((price): price is PolledPrice => price !== undefined);
  return checked.call(this, priced, settings.tokens, chainLabel(chainName));
}

/**
 * A token without a price (no pool with enough liquidity, or not on this chain) keeps its state and
 * is logged; when none of the tokens has one, the poll fails saying so (a wrong chain or address).
 */
function checked(
  this: IPollFunctions,
  priced: PolledPrice[],
  wanted: string[],
  where: string,
): PolledPrice[] {
  const found = new Set(priced.map((price) => price.token));
  const missing = wanted.filter((token) => !found.has(token));
  if (missing.length > 0 && priced.length > 0) {
    this.logger.warn(
      `Blockwire Price Trigger: no price on ${where} for ${missing.join(', ')}; skipped this poll`,
    );
  }
  if (priced.length === 0) {
    throw new NodeOperationError(this.getNode(), `No price on ${where} for ${missing.join(', ')}`, {
      description:
        'Check the chain and the token addresses: Blockwire found no pool with enough liquidity to price them.',
    });
  }
  return priced;
}

/** `addresses.3` → "Token Mint Addresses (entry 4)". */
function entryLabel(label: string, path: string): string | undefined {
  const index = /^addresses\.(\d+)$/.exec(path)?.[1];
  if (index !== undefined) return `${label} (entry ${Number(index) + 1})`;
  return path === 'addresses' ? label : undefined;
}
