import { type FieldInfo, findChain, rpcChainSegment, ValidationError } from '@blockwire/core/operations';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { listParameter } from '../shared/lists';
import { collectionOf, type DescribedAction, userFields } from './description';
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
  const required = fields
    .filter((field) => field.required)
    .map((field) => ({ field, read: itemParameter(context, field.name) }));
  const optional = fields.filter((field) => !field.required);
  const collectionName = collectionOf(action);
  return (itemIndex) => {
    const input: Record<string, unknown> = {};
    for (const { field, read } of required) input[field.name] = coerce(field, read(itemIndex));
    if (optional.length > 0) {
      const collection = context.getNodeParameter(collectionName, itemIndex, {}) as IDataObject;
      for (const field of optional) {
        if (!(field.name in collection)) continue;
        const value = coerce(field, collection[field.name]);
        if (value !== undefined) input[field.name] = value;
      }
    }
    return input;
  };
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
  throw new ValidationError([
    {
      path: 'chain',
      message: `must be a chain name (eth, polygon, bsc testnet), a hex or decimal chain ID, or a node path segment; got ${JSON.stringify(String(value).slice(0, 40))}`,
    },
  ]);
}
