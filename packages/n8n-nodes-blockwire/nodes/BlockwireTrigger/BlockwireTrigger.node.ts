import {
  type IExecuteFunctions,
  type IHookFunctions,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  type IWebhookResponseData,
  NodeConnectionTypes,
} from 'n8n-workflow';
import { polishProperties } from '../shared/wording';
import { dropRepeats, receiveDelivery } from './deliveries';
import { triggerProperties } from './properties';
import { bitcoinStreamExists, createBitcoinStreamForNode, deleteBitcoinStreamOfNode } from './stream';

export class BlockwireTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Blockwire Trigger',
    name: 'blockwireTrigger',
    icon: { light: 'file:../../icons/blockwire.svg', dark: 'file:../../icons/blockwire.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{ $parameter["mode"] === "evm" ? "EVM stream" : "Bitcoin stream" }}',
    description: 'Starts the workflow when a Blockwire stream delivers a webhook (Bitcoin or EVM)',
    defaults: { name: 'Blockwire Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'blockwireApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: polishProperties(triggerProperties),
  };

  webhookMethods = {
    default: {
      async checkExists(this: IHookFunctions): Promise<boolean> {
        return await bitcoinStreamExists.call(this);
      },
      async create(this: IHookFunctions): Promise<boolean> {
        return await createBitcoinStreamForNode.call(this);
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        return await deleteBitcoinStreamOfNode.call(this);
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    return await receiveDelivery.call(this);
  }

  // Runs in the execution a delivery started (a worker, in queue mode), with the webhook's items.
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await dropRepeats.call(this);
  }
}
