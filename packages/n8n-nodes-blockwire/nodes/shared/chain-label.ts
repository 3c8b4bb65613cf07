import { findChain } from '@blockwire/core/operations';

/** Chains whose name says less than their label; the others are their name, capitalized. */
const CHAIN_NAMES: Readonly<Record<string, string>> = {
  eth: 'Ethereum',
  bsc: 'BNB Smart Chain',
  'bsc testnet': 'BNB Smart Chain Testnet',
  pulse: 'PulseChain',
  moonbase: 'Moonbase Alpha',
};

/** How a chain reads in a dropdown: "Ethereum (0x1)", "Base Sepolia (0x14a34)". */
export function chainLabel(nameOrValue: string): string {
  const chain = findChain(nameOrValue);
  return chain ? `${chainTitle(chain.name)} (${chain.hexId})` : nameOrValue;
}

/** A registry name as people write it: `eth` → Ethereum, `base sepolia` → Base Sepolia. */
export function chainTitle(name: string): string {
  return CHAIN_NAMES[name] ?? name.replace(/-/g, ' ').replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}
