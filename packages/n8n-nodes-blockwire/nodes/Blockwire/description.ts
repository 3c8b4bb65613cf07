import type { FieldInfo } from '@blockwire/core/operations';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { actionText, polishProperties } from '../shared/wording';
import { chainLabel, type NodeAction, RPC_CHAIN_OPTIONS, resourceLabel } from './actions';
import { LONG_TEXT } from './output';
import { toolDescriptionProperties } from './tool-description';

/** What the builder needs of an action: its presentation, not its code. */
export type DescribedAction = Pick<
  NodeAction,
  | 'resource'
  | 'action'
  | 'displayName'
  | 'summary'
  | 'fields'
  | 'paging'
  | 'client'
  | 'bulky'
  | 'list'
  | 'format'
  | 'output'
  | 'chunking'
> &
  Partial<Pick<NodeAction, 'examples'>>;

/** Parameter names the node itself uses; no SDK field may take one (a test holds this). */
export const NODE_PARAMETERS = [
  'resource',
  'operation',
  'chain',
  'returnAll',
  'limit',
  'simplify',
  'options',
  'additionalFields',
] as const;

/** Writes take their optional fields as "Additional Fields", everything else as "Options". */
export function collectionOf(action: Pick<DescribedAction, 'action'>): 'additionalFields' | 'options' {
  return action.action === 'create' || action.action.startsWith('update') ? 'additionalFields' : 'options';
}

/** The input fields the node fills itself: a list's cursor or page number, and its size (from Limit). */
export function pagingFields(action: Pick<DescribedAction, 'paging' | 'list'>): string[] {
  const paging = action.paging;
  const fields = paging ? [paging.style === 'cursor' ? paging.cursorField : paging.pageField] : [];
  const sizeField = paging?.limitField ?? action.list?.sizeField;
  if (sizeField) fields.push(sizeField);
  return fields;
}

/**
 * The input field that picks an EVM chain. Optional in the SDK (the service prices on Ethereum
 * when it is left out), it is still a top-level dropdown, set to the first chain of the registry
 * (Ethereum): what a call prices on must be visible, not hidden under Add Option. Version 1 of the
 * node had it in the collection (`options.chain`); saved version-1 nodes keep it there, the n8n
 * way: the node is `version: [1, 2]` and each parameter says which versions show it.
 */
export const CHAIN_FIELD = 'chain';

/** The node's versions; new nodes get the last. */
export const NODE_VERSIONS = [1, 2] as const;
/** The version from which the chain is a top-level parameter. */
export const CHAIN_TOP_LEVEL_SINCE = 2;
const LATEST = NODE_VERSIONS[NODE_VERSIONS.length - 1]!;

/** Whether an optional field is one that is top-level from CHAIN_TOP_LEVEL_SINCE on. */
function isPromoted(field: Pick<FieldInfo, 'name' | 'required' | 'type'>): boolean {
  return !field.required && field.name === CHAIN_FIELD && field.type === 'options';
}

/** Whether a field is a top-level parameter in a version of the node, rather than in the collection. */
export function isTopLevel(
  field: Pick<FieldInfo, 'name' | 'required' | 'type'>,
  version: number = LATEST,
): boolean {
  return field.required || (isPromoted(field) && version >= CHAIN_TOP_LEVEL_SINCE);
}

const SINCE_TOP_LEVEL = { '@version': [{ _cnd: { gte: CHAIN_TOP_LEVEL_SINCE } }] };
const BEFORE_TOP_LEVEL = { '@version': [{ _cnd: { lt: CHAIN_TOP_LEVEL_SINCE } }] };

/** The fields a user sets for an action (all but the paging ones), required first. */
export function userFields(action: Pick<DescribedAction, 'fields' | 'paging' | 'list'>): FieldInfo[] {
  const hidden = new Set(pagingFields(action));
  return action.fields.filter((field) => !hidden.has(field.name));
}

/**
 * The node's parameters, built from the actions alone: a Resource dropdown, an Operation dropdown
 * per resource, then per action its required fields as top-level parameters and its optional ones
 * in the action's collection, each keyed by the SDK's input name with the SDK's label,
 * description, type, default, placeholder and options. Lists (paged or capped) get Return All /
 * Limit, actions with
 * bulky answers get Simplify, JSON-RPC actions a Chain.
 */
export function buildProperties(actions: readonly DescribedAction[]): INodeProperties[] {
  const resources = [...new Set(actions.map((action) => action.resource))];
  const properties: INodeProperties[] = [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      options: resources.map((resource) => ({ name: resourceLabel(resource), value: resource })),
      default: firstOf(resources),
    },
  ];
  for (const resource of resources) {
    const own = actions.filter((action) => action.resource === resource);
    properties.push({
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [resource] } },
      options: own.map(
        (action): INodePropertyOptions => ({
          name: action.displayName,
          value: action.action,
          description: action.summary,
          action: actionText(action.displayName),
        }),
      ),
      default: firstOf(own.map((action) => action.action)),
    });
  }
  const rpcResources = [
    ...new Set(actions.filter((action) => action.client === 'rpc').map((a) => a.resource)),
  ];
  if (rpcResources.length > 0) {
    properties.push({
      displayName: 'Chain',
      name: 'chain',
      type: 'options',
      options: RPC_CHAIN_OPTIONS,
      default: firstOf(RPC_CHAIN_OPTIONS.map((option) => option.value)),
      required: true,
      description:
        'The chain whose node answers. An expression may give a name, a hex ID (0x89), a decimal ID (137) or any other chain path the service serves.',
      displayOptions: { show: { resource: rpcResources } },
    });
  }
  for (const action of actions) properties.push(...actionProperties(action));
  properties.push(
    ...toolDescriptionProperties(actions.map((action) => ({ ...action, fields: userFields(action) }))),
  );
  return polishProperties(properties);
}

function actionProperties(action: DescribedAction): INodeProperties[] {
  const show = { resource: [action.resource], operation: [action.action] };
  const fields = userFields(action);
  const properties: INodeProperties[] = fields
    .filter((field) => isTopLevel(field))
    .map((field) => ({
      ...fieldProperty(field),
      required: true,
      displayOptions: { show: isPromoted(field) ? { ...show, ...SINCE_TOP_LEVEL } : show },
    }));
  if (action.paging || action.list) {
    properties.push(
      {
        displayName: 'Return All',
        name: 'returnAll',
        type: 'boolean',
        default: false,
        description: 'Whether to return all results or only up to a given limit',
        displayOptions: { show },
      },
      {
        displayName: 'Limit',
        name: 'limit',
        type: 'number',
        typeOptions: { minValue: 1 },
        default: 50,
        description: 'Max number of results to return',
        displayOptions: { show: { ...show, returnAll: [false] } },
      },
    );
  }
  // A promoted field stays in the collection for the versions before it moved.
  const optional = fields.filter((field) => !field.required);
  if (optional.length > 0) {
    const collection = collectionOf(action);
    properties.push({
      displayName: collection === 'additionalFields' ? 'Additional Fields' : 'Options',
      name: collection,
      type: 'collection',
      placeholder: collection === 'additionalFields' ? 'Add Field' : 'Add Option',
      default: {},
      displayOptions: { show },
      options: optional.map((field) =>
        isPromoted(field)
          ? { ...fieldProperty(field), displayOptions: { show: BEFORE_TOP_LEVEL } }
          : fieldProperty(field),
      ),
    });
  }
  if (action.bulky) {
    properties.push({
      displayName: 'Simplify',
      name: 'simplify',
      type: 'boolean',
      default: true,
      description: action.format
        ? 'Whether to return formatted values (ETH, token units, gwei) with the raw ones under raw, instead of the full answer'
        : `Whether to leave out the bulky parts of the answer: each list of objects becomes its count (e.g. transactions → transactionsCount) and texts longer than ${LONG_TEXT} characters are dropped`,
      displayOptions: { show },
    });
  }
  return properties;
}

/** An option named by its lowercase value (a stream status: `active`) reads "Active". */
function capitalized(name: string): string {
  return /^[a-z]+$/.test(name) ? `${name[0]!.toUpperCase()}${name.slice(1)}` : name;
}

function firstOf(values: readonly string[]): string {
  return values[0] ?? '';
}

const LIST_HINT = 'One per line or separated by commas, or an array from an expression.';

/** One SDK input field as an n8n parameter, everything taken from the field's description. */
export function fieldProperty(field: FieldInfo): INodeProperties {
  const base = {
    displayName: field.displayName,
    name: field.name,
    description: field.description,
    ...(field.placeholder === undefined ? {} : { placeholder: field.placeholder }),
  };
  switch (field.type) {
    case 'boolean':
      return {
        ...base,
        type: 'boolean',
        default: typeof field.default === 'boolean' ? field.default : false,
      };
    case 'number':
      return { ...base, type: 'number', default: numberDefault(field) };
    case 'options': {
      const options = (field.options ?? []).map((option) => ({
        name: field.name === 'chain' ? chainLabel(String(option.value)) : capitalized(String(option.name)),
        value: option.value,
      }));
      return {
        ...base,
        type: 'options',
        options,
        default: (field.default as string | number | undefined) ?? options[0]?.value ?? '',
      };
    }
    case 'stringList':
      return {
        ...base,
        type: 'string',
        typeOptions: { rows: 2 },
        description: `${field.description} ${LIST_HINT}`.trim(),
        default: Array.isArray(field.default) ? field.default.join(', ') : '',
      };
    case 'json':
      return {
        ...base,
        type: 'json',
        default:
          field.default === undefined
            ? field.schema.type === 'array'
              ? '[]'
              : '{}'
            : JSON.stringify(field.default),
      };
    default:
      return { ...base, type: 'string', default: typeof field.default === 'string' ? field.default : '' };
  }
}

/**
 * An optional number without a default of its own starts empty, which the node leaves out: 0 is a
 * value (Limit 0 asks for nothing, To Block 0 for the first block), not "not set".
 */
function numberDefault(field: FieldInfo): number | '' {
  if (typeof field.default === 'number') return field.default;
  return field.required ? 0 : '';
}
