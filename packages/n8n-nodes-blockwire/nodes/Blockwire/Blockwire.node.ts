import {
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  NodeConnectionTypes,
} from 'n8n-workflow';
import { NODE_ACTIONS } from './actions';
import { buildProperties, NODE_VERSIONS } from './description';
import { runAction } from './router';

export class Blockwire implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Blockwire',
    name: 'blockwire',
    icon: { light: 'file:../../icons/blockwire.svg', dark: 'file:../../icons/blockwire.dark.svg' },
    group: ['transform'],
    version: [...NODE_VERSIONS],
    subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
    description: 'Token prices, entities, streams, Bitcoin streams and JSON-RPC node access from Blockwire',
    defaults: { name: 'Blockwire' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'blockwireApi', required: true }],
    properties: buildProperties(NODE_ACTIONS),
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await runAction(this, NODE_ACTIONS);
  }
}
