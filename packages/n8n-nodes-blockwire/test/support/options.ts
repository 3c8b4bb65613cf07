import type { INodeProperties } from 'n8n-workflow';
import { NODE_ACTIONS } from '../../nodes/Blockwire/actions';
import { buildProperties, collectionOf } from '../../nodes/Blockwire/description';

/** The collection option n8n adds, with its default, when the user picks it (issue 21, point 2). */
export function collectionOption(resource: string, operation: string, name: string): INodeProperties {
  const action = NODE_ACTIONS.find(
    (candidate) => candidate.resource === resource && candidate.action === operation,
  );
  if (!action) throw new Error(`no action ${resource}.${operation}`);
  const collection = buildProperties([action]).find((property) => property.name === collectionOf(action));
  const option = (collection?.options as INodeProperties[] | undefined)?.find(
    (candidate) => candidate.name === name,
  );
  if (!option) throw new Error(`no option ${name} on ${resource}.${operation}`);
  return option;
}
