import { type FieldInfo, findChain, rpcChainSegment, ValidationError } from '@blockwire/core/operations';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { listParameter } from '../shared/lists';
import { suggestedChainLabel, unknownChainText } from './actions';
import {
  CHAIN_FIELD,
  collectionOf,
  type DescribedAction,
  fieldProperty,
  isTopLevel,
  userFields,
} from './description';
import { itemParameter } from './item-parameter';

/**
 * One item's input for an action, keyed by the SDK's names: the required fields from their
 * top-level parameters, the optional ones the user added to the collection. Lists accept an array
 * or comma/newline text, JSON fields a JSON text or a value; empty optional texts are left out.
 * The SDK checks the values; nothing is checked twice here.
 */
export function readInput(
  context: IExecuteFunctions,
  action: Pick<DescribedAction, 'action' | 'fields' | 'paging' | 'list'>,
  itemIndex: number,
): Record<string, unknown> {
  return inputReader(context, action)(itemIndex);
}

/**
 * readInput for every item of one run: what does not change from item to item (which fields,
 * how each required parameter is read: see itemParameter) is worked out once.
 */
export function inputReader(
  context: IExecuteFunctions,
  action: Pick<DescribedAction, 'action' | 'fields' | 'paging' | 'list'>,
): (itemIndex: number) => Record<string, unknown> {
  const fields = userFields(action);
  const collectionName = collectionOf(action);
  const version = context.getNode().typeVersion;
  const topLevel = fields
    .filter((field) => isTopLevel(field, version))
    // An optional one (the chain) may be missing from a node n8n did not fill in: its default.
    .map((field) => ({
      field,
      read: itemParameter(context, field.name, field.required ? undefined : fieldProperty(field).default),
    }));
  const optional = fields.filter((field) => !isTopLevel(field, version));
  return (itemIndex) => {
    const input: Record<string, unknown> = {};
    for (const { field, read } of topLevel) {
      const value = coerce(field, read(itemIndex));
      if (field.name === CHAIN_FIELD) checkChain(value);
      if (value !== undefined) input[field.name] = value;
    }
    if (optional.length > 0) {
      const collection = context.getNodeParameter(collectionName, itemIndex, {}) as IDataObject;
      for (const field of optional) {
        if (!(field.name in collection)) continue;
        const value = coerce(field, collection[field.name]);
        if (field.name === CHAIN_FIELD) checkChain(value);
        if (value !== undefined) input[field.name] = value;
      }
    }
    return input;
  };
}

/** A chain the registry does not know, refused in the dropdown's words before anything is sent. */
function checkChain(value: unknown): void {
  if (value === undefined || value === '') return;
  if ((typeof value === 'string' || typeof value === 'number') && findChain(value)) return;
  throw new ValidationError([{ path: CHAIN_FIELD, message: unknownChainText(value) }]);
}

function coerce(field: FieldInfo, value: unknown): unknown {
  switch (field.type) {
    case 'stringList':
      return listParameter(value);
    case 'json':
      return parseJson(field, value);
    case 'string':
    case 'number':
      return value === '' && !field.required ? undefined : value;
    case 'options':
      if (value === '' && !field.required) return undefined; // an expression that gave nothing: the service's default
      // A choice for a list field (Bitcoin's network): the list of that one choice.
      return field.schema.type === 'array' && !Array.isArray(value) ? [value] : value;
    default:
      return value;
  }
}

function parseJson(field: FieldInfo, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return undefined;
  let parsed: { value: unknown } | undefined;
  try {
    parsed = { value: JSON.parse(value) };
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw new ValidationError([{ path: field.name, message: 'is not valid JSON' }]);
  return parsed.value;
}

/**
 * The JSON-RPC path segment for the Chain parameter: a registry chain by name, hex or decimal id
 * (`bsc testnet`, `0x61`, `97` → `bsc-testnet`), or any other lowercase path segment as given.
 */
export function rpcChainOf(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const known = text === '' ? undefined : findChain(text);
  if (known) return rpcChainSegment(known);
  if (/^[a-z0-9][a-z0-9-]{0,62}$/.test(text)) return text;
  const suggestion = suggestedChainLabel(text);
  throw new ValidationError([
    {
      path: 'chain',
      message: `must be a chain from the Chain list, a hex or decimal chain ID, or a node path segment; got ${JSON.stringify(String(value).slice(0, 40))}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
    },
  ]);
}
