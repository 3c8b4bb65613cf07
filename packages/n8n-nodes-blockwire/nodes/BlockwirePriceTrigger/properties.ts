import { EVM_CHAINS } from '@blockwire/core/operations';
import { SOLANA_NETWORKS } from '@blockwire/prices/operations';
import type { INodeProperties } from 'n8n-workflow';
import { chainLabel } from '../shared/chain-label';
import { CONDITIONS, type Condition } from './conditions';

const evmOnly = { show: { blockchain: ['evm'] } };
const solanaOnly = { show: { blockchain: ['solana'] } };
const crossing: Condition[] = ['crossesAbove', 'crossesBelow'];
const percent: Condition[] = ['movesSinceAlert', 'movesOverWindow'];

export const priceTriggerProperties: INodeProperties[] = [
  {
    displayName: 'Blockchain',
    name: 'blockchain',
    type: 'options',
    noDataExpression: true,
    options: [
      { name: 'EVM', value: 'evm', description: 'ERC-20 tokens on an EVM chain, one price call per token' },
      { name: 'Solana', value: 'solana', description: 'SPL token mints, every mint in one batched call' },
    ],
    default: 'evm',
  },
  {
    displayName: 'Chain',
    name: 'chain',
    type: 'options',
    options: EVM_CHAINS.map((chain) => ({ name: chainLabel(chain.name), value: chain.name })),
    default: 'eth',
    required: true,
    description: 'The EVM chain the tokens are on',
    displayOptions: evmOnly,
  },
  {
    displayName: 'Network',
    name: 'network',
    type: 'options',
    options: SOLANA_NETWORKS.map((network) => ({
      name: network === 'mainnet' ? 'Mainnet' : 'Devnet',
      value: network,
    })),
    default: 'mainnet',
    description: 'The Solana cluster',
    displayOptions: solanaOnly,
  },
  {
    displayName: 'Token Addresses',
    name: 'addresses',
    type: 'string',
    typeOptions: { rows: 2 },
    default: '',
    required: true,
    placeholder: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
    description:
      'ERC-20 contract addresses (0x and 40 hex digits), one per line or separated by commas (or an array from an expression)',
    displayOptions: evmOnly,
  },
  {
    displayName: 'Token Mint Addresses',
    name: 'mints',
    type: 'string',
    typeOptions: { rows: 2 },
    default: '',
    required: true,
    placeholder: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
    description:
      'Solana token mint addresses (base58), one per line or separated by commas (or an array from an expression). Up to 100 cost one call per poll.',
    displayOptions: solanaOnly,
  },
  {
    displayName: 'Condition',
    name: 'condition',
    type: 'options',
    noDataExpression: true,
    options: Object.entries(CONDITIONS).map(([value, { name, description }]) => ({
      name,
      value,
      description,
    })),
    default: 'crossesAbove',
  },
  {
    displayName: 'Price (USD)',
    name: 'threshold',
    type: 'number',
    typeOptions: { minValue: 0, numberPrecision: 10 },
    default: 0,
    required: true,
    description: 'The USD price whose crossing fires the trigger, once per crossing',
    displayOptions: { show: { condition: crossing } },
  },
  {
    displayName: 'Change (%)',
    name: 'percent',
    type: 'number',
    typeOptions: { minValue: 0, numberPrecision: 4 },
    default: 5,
    required: true,
    description: 'How far the price must move, up or down, in percent',
    displayOptions: { show: { condition: percent } },
  },
  {
    displayName: 'Window (Minutes)',
    name: 'windowMinutes',
    type: 'number',
    typeOptions: { minValue: 1 },
    default: 60,
    required: true,
    description:
      'The move is measured against the earliest price polled within this many minutes; poll at least twice within it',
    displayOptions: { show: { condition: ['movesOverWindow'] } },
  },
];
