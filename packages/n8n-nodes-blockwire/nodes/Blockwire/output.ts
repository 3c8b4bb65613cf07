import { createRedactor } from '@blockwire/core/operations';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { LONG_TEXT } from './actions';

/**
 * The n8n items for one answer, all paired with the input item they came from: a list gives one
 * item per entry, an object one item, nothing (a delete) `{ success: true }`, any other value
 * `{ result }`. Values n8n cannot store as JSON are made so: errors become `{ name, message }`
 * (masked), bigints decimal strings.
 */
export function toItems(
  answer: unknown,
  itemIndex: number,
  options: { simplify?: boolean; redact?: (text: string) => string } = {},
): INodeExecutionData[] {
  const redact = options.redact ?? createRedactor([]);
  const entries = Array.isArray(answer) ? answer : [answer];
  return entries.map((entry) => {
    let json = toJson(entry, redact);
    if (options.simplify) json = simplify(json);
    const object =
      json === undefined
        ? { success: true }
        : typeof json === 'object' && json !== null && !Array.isArray(json)
          ? (json as IDataObject)
          : { result: json as IDataObject[keyof IDataObject] };
    return { json: object, pairedItem: { item: itemIndex } };
  });
}

function toJson(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (value instanceof Error) return { name: value.name, message: redact(value.message) };
  if (typeof value === 'bigint') return value.toString();
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((entry) => toJson(entry, redact, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key, toJson(entry, redact, depth + 1)]),
  );
}

/**
 * Leaves out what is bulk rather than information: each list of objects becomes its count
 * (`transactions` → `transactionsCount`), texts longer than LONG_TEXT and lists holding one are
 * dropped. Nested objects are simplified the same way.
 */
export function simplify(value: unknown, depth = 0): unknown {
  if (depth > 64 || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (Array.isArray(entry)) {
      if (entry.some((element) => typeof element === 'object' && element !== null))
        out[`${key}Count`] = entry.length;
      else if (!entry.some((element) => typeof element === 'string' && element.length > LONG_TEXT))
        out[key] = entry;
    } else if (typeof entry === 'string') {
      if (entry.length <= LONG_TEXT) out[key] = entry;
    } else {
      out[key] = simplify(entry, depth + 1);
    }
  }
  return out;
}
