import { BITCOIN_DELIVERY_STAGES, type BitcoinDeliveryStage } from '@blockwire/streams/operations';
import type { INodeProperties } from 'n8n-workflow';

export type TriggerMode = 'bitcoin' | 'evm';

const STAGE_OPTIONS: Record<BitcoinDeliveryStage, { name: string; description: string }> = {
  mempool: { name: 'Mempool', description: 'Seen in the mempool, not yet in a block' },
  'in-block': { name: 'In Block', description: 'In a block near the tip, which may still be reorganized' },
  confirmed: { name: 'Confirmed', description: 'Two more blocks on top: safe to act on' },
};

const bitcoinOnly = { show: { mode: ['bitcoin'] } };

export const triggerProperties: INodeProperties[] = [
  {
    displayName: 'Stream',
    name: 'mode',
    type: 'options',
    noDataExpression: true,
    options: [
      {
        name: 'Bitcoin (Created by This Trigger)',
        value: 'bitcoin',
        description:
          'Creates a Bitcoin stream when the workflow is activated and deletes it when deactivated',
      },
      {
        name: 'EVM (Existing Stream)',
        value: 'evm',
        description: "Receives the deliveries of an EVM stream whose webhook URL you set to this node's URL",
      },
    ],
    default: 'bitcoin',
  },
  {
    displayName:
      "Set the webhook URL of your EVM stream to this node's Production URL (above, under Webhook URLs). Nothing is registered with Blockwire in this mode.",
    name: 'evmNotice',
    type: 'notice',
    default: '',
    displayOptions: { show: { mode: ['evm'] } },
  },
  {
    displayName: 'Addresses',
    name: 'addresses',
    type: 'string',
    typeOptions: { rows: 3 },
    default: '',
    placeholder: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    description:
      'Bitcoin mainnet addresses to watch, one per line or separated by commas (or an array from an expression). Payments to or from them are delivered.',
    displayOptions: bitcoinOnly,
  },
  {
    displayName: 'Extended Public Keys',
    name: 'xpubs',
    type: 'string',
    typeOptions: { rows: 2 },
    default: '',
    placeholder:
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    description:
      'Account xpubs, ypubs or zpubs, one per line or separated by commas: the service derives their addresses and watches them',
    displayOptions: bitcoinOnly,
  },
  {
    displayName: 'All Addresses',
    name: 'allAddresses',
    type: 'boolean',
    default: false,
    description: 'Whether to deliver every Bitcoin transaction, not only those of the addresses above',
    displayOptions: bitcoinOnly,
  },
  {
    displayName: 'Stages',
    name: 'stages',
    type: 'multiOptions',
    options: BITCOIN_DELIVERY_STAGES.map((stage) => ({ value: stage, ...STAGE_OPTIONS[stage] })),
    default: [...BITCOIN_DELIVERY_STAGES],
    description: 'Which deliveries of a transaction start the workflow',
    displayOptions: bitcoinOnly,
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    displayOptions: bitcoinOnly,
    options: [
      {
        displayName: 'Description',
        name: 'description',
        type: 'string',
        default: '',
        description: 'Description of the stream; default: the workflow it belongs to',
      },
      {
        displayName: 'Include Inputs',
        name: 'includeInputs',
        type: 'boolean',
        default: false,
        description: 'Whether deliveries carry each transaction’s inputs (vin)',
      },
      {
        displayName: 'Include Outputs',
        name: 'includeOutputs',
        type: 'boolean',
        default: true,
        description: 'Whether deliveries carry each transaction’s outputs (vout), with addresses and values',
      },
      {
        displayName: 'Tag',
        name: 'tag',
        type: 'string',
        default: '',
        description: 'Label the service sends with each delivery',
      },
    ],
  },
];
