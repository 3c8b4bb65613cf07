import type { SolanaNetwork } from '@blockwire/prices/operations';
import { type IPollFunctions, NodeOperationError } from 'n8n-workflow';
import { listParameter } from '../shared/lists';
import { isCondition, type Rule } from './conditions';

export type PriceSettings = { rule: Rule } & (
  | { blockchain: 'evm'; chain: string; tokens: string[] }
  | { blockchain: 'solana'; network: SolanaNetwork; mints: string[] }
);

/** The node's parameters, checked: a missing or impossible value is an error naming the field. */
export function readSettings(this: IPollFunctions): PriceSettings {
  const node = this.getNode();
  const fail = (message: string) =>
    new NodeOperationError(node, message, { description: 'Correct the parameter named above.' });
  const condition = this.getNodeParameter('condition', 'crossesAbove');
  if (!isCondition(condition)) throw fail(`Condition: unknown condition ${JSON.stringify(condition)}`);
  const number = (name: string, label: string, min: number) => {
    const value = Number(this.getNodeParameter(name, Number.NaN));
    if (!Number.isFinite(value) || value < min) throw fail(`${label} must be a number of at least ${min}`);
    return value;
  };
  const crossing = condition === 'crossesAbove' || condition === 'crossesBelow';
  const rule: Rule = {
    condition,
    threshold: crossing ? number('threshold', 'Price (USD)', 0) : 0,
    percent: crossing ? 0 : number('percent', 'Change (%)', 0),
    windowMinutes: condition === 'movesOverWindow' ? number('windowMinutes', 'Window (Minutes)', 1) : 0,
  };
  const unique = (values: string[]) => [...new Set(values)];
  if (this.getNodeParameter('blockchain', 'evm') === 'solana') {
    const mints = unique(listParameter(this.getNodeParameter('mints', '')));
    if (mints.length === 0) throw fail('Token Mint Addresses: give at least one Solana mint address');
    const network = this.getNodeParameter('network', 'mainnet') as SolanaNetwork;
    return { rule, blockchain: 'solana', network, mints };
  }
  const tokens = unique(listParameter(this.getNodeParameter('addresses', '')));
  if (tokens.length === 0) throw fail('Token Addresses: give at least one token contract address');
  const chain = String(this.getNodeParameter('chain', 'eth'));
  return { rule, blockchain: 'evm', chain, tokens };
}

/** What the trigger's state depends on: a change of any of these arms the trigger again. */
export function ruleKeyOf(settings: PriceSettings): string {
  const where = settings.blockchain === 'evm' ? settings.chain : settings.network;
  return JSON.stringify([settings.blockchain, where, settings.rule]);
}
