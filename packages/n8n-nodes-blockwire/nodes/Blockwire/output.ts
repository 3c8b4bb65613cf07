import { createRedactor, inputJsonSchema, type JsonSchema } from '@blockwire/core/operations';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type * as z from 'zod/v4/core';

/** A text this long (a logs bloom, a Merkle proof node) is bulk, not something to read. */
export const LONG_TEXT = 256;

/**
 * The n8n items for one answer, all paired with the input item they came from: a list gives one
 * item per entry, an object one item, nothing (a delete) `{ success: true }`, any other value
 * `{ result }`. Values n8n cannot store as JSON are made so: errors become `{ name, message }`
 * (masked), bigints decimal strings.
 */
export function toItems(
  answer: unknown,
  itemIndex: number,
  options: { simplify?: SimplifyPlan; redact?: (text: string) => string } = {},
): INodeExecutionData[] {
  const redact = options.redact ?? createRedactor([]);
  const entries = Array.isArray(answer) ? answer : [answer];
  // An array answer's schema describes the array: each item is one of its elements.
  const entryTree = (tree: QuantityTree) => (Array.isArray(answer) ? (tree.items ?? tree) : tree);
  return entries.map((entry) => {
    let json = toJson(entry, redact);
    if (options.simplify)
      json = simplify(decimals(json, entryTree(options.simplify.quantities)), options.simplify);
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
 * Which keys Simplify always counts or drops for an operation, so that every simplified item of it
 * has the same keys: a key whose schema allows a list of objects is always counted (a receipt
 * without logs gets `logsCount: 0`, not `logs: []`; a block gives `transactionsCount` with hashes
 * or full transactions), a key holding a long text in the operation's examples is always dropped.
 */
export interface SimplifyPlan {
  counted: ReadonlySet<string>;
  dropped: ReadonlySet<string>;
  /** Where the answer holds quantities (hex numbers), which Simplify shows as decimals. */
  quantities: QuantityTree;
}

export function simplifyPlanOf(schema: z.$ZodType | undefined, examples: readonly unknown[]): SimplifyPlan {
  const counted = new Set<string>();
  const dropped = new Set<string>();
  const json = schema ? inputJsonSchema(schema) : undefined;
  if (json) listsOfObjects(json, undefined, counted, 0);
  for (const example of examples) longTexts(example, undefined, dropped, 0);
  return { counted, dropped, quantities: json ? quantitiesOf(json) : {} };
}

/** The shape of a schema down to its `format: "quantity"` values (a block's `number`, not its `nonce`). */
export interface QuantityTree {
  quantity?: true;
  properties?: Map<string, QuantityTree>;
  items?: QuantityTree;
}

function quantitiesOf(schema: JsonSchema, tree: QuantityTree = {}, depth = 0): QuantityTree {
  if (depth > 32) return tree;
  for (const variant of variantsOf(schema)) {
    if (variant.format === 'quantity') tree.quantity = true;
    const properties = (variant.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, property] of Object.entries(properties)) {
      tree.properties ??= new Map();
      const child = tree.properties.get(name) ?? {};
      tree.properties.set(name, quantitiesOf(property, child, depth + 1));
    }
    const items = variant.items as JsonSchema | undefined;
    if (variant.type === 'array' && items) tree.items = quantitiesOf(items, tree.items ?? {}, depth + 1);
  }
  return tree;
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

/**
 * Hex quantities as decimals: a number while it is exact (up to 2^53 - 1), past that a decimal
 * string, so a balance in wei is never rounded. Hashes, addresses and data stay as they are.
 */
export function decimals(value: unknown, tree: QuantityTree, depth = 0): unknown {
  if (depth > 64) return value;
  if (tree.quantity && typeof value === 'string' && HEX_QUANTITY.test(value)) {
    const number = BigInt(value);
    return number <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(number) : number.toString();
  }
  if (Array.isArray(value)) {
    const items = tree.items;
    return items ? value.map((entry) => decimals(entry, items, depth + 1)) : value;
  }
  if (typeof value !== 'object' || value === null || !tree.properties) return value;
  const properties = tree.properties;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => {
      const child = properties.get(key);
      return [key, child ? decimals(entry, child, depth + 1) : entry];
    }),
  );
}

function listsOfObjects(
  schema: JsonSchema,
  key: string | undefined,
  found: Set<string>,
  depth: number,
): void {
  if (depth > 32 || typeof schema !== 'object' || schema === null) return;
  for (const variant of variantsOf(schema)) {
    const properties = (variant.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, property] of Object.entries(properties)) {
      listsOfObjects(property, name, found, depth + 1);
    }
    const items = variant.items as JsonSchema | undefined;
    if (variant.type === 'array' && items) {
      if (key !== undefined && mayBeObject(items)) found.add(key);
      listsOfObjects(items, undefined, found, depth + 1);
    }
  }
}

function variantsOf(schema: JsonSchema): JsonSchema[] {
  const options = [...((schema.anyOf as JsonSchema[]) ?? []), ...((schema.oneOf as JsonSchema[]) ?? [])];
  return [schema, ...options.flatMap(variantsOf)];
}

function mayBeObject(schema: JsonSchema): boolean {
  return variantsOf(schema).some((variant) => variant.type === 'object' || variant.properties !== undefined);
}

function longTexts(value: unknown, key: string | undefined, found: Set<string>, depth: number): void {
  if (depth > 32) return;
  if (typeof value === 'string') {
    if (key !== undefined && value.length > LONG_TEXT) found.add(key);
  } else if (Array.isArray(value)) {
    for (const entry of value) longTexts(entry, key, found, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, entry] of Object.entries(value)) longTexts(entry, name, found, depth + 1);
  }
}

/**
 * Leaves out what is bulk rather than information: each list of objects becomes its count
 * (`transactions` → `transactionsCount`), texts longer than LONG_TEXT and lists holding one are
 * dropped, and so are the keys the plan names, whatever this answer holds. Nested objects are
 * simplified the same way.
 */
export function simplify(value: unknown, plan: SimplifyPlan, depth = 0): unknown {
  if (depth > 64 || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (plan.dropped.has(key)) continue;
    if (plan.counted.has(key) && !Array.isArray(entry)) {
      out[`${key}Count`] = null; // no list at all (null): the key stays the same
    } else if (Array.isArray(entry)) {
      if (plan.counted.has(key) || entry.some((element) => typeof element === 'object' && element !== null))
        out[`${key}Count`] = entry.length;
      else if (!entry.some((element) => typeof element === 'string' && element.length > LONG_TEXT))
        out[key] = entry;
    } else if (typeof entry === 'string') {
      if (entry.length <= LONG_TEXT) out[key] = entry;
    } else {
      out[key] = simplify(entry, plan, depth + 1);
    }
  }
  return out;
}
