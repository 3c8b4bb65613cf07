import { type IExecuteFunctions, isSafeObjectProperty } from 'n8n-workflow';

/**
 * `={{ $json.address }}`, `={{ $json["address"] }}` (any spacing inside the braces, nothing
 * outside them): the whole parameter is one field of the current item.
 */
const ONE_ITEM_FIELD =
  /^=\{\{\s*\$json\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:"([\w $.-]+)"|'([\w $.-]+)')\s*\])\s*\}\}$/;

/**
 * The parameter `name`'s value for each item, as `getNodeParameter(name, itemIndex)` gives it.
 *
 * Why not just call getNodeParameter: n8n evaluates an expression parameter once per item, and
 * in n8n 2.x each evaluation builds a workflow data proxy and runs in an isolate: about 0.7 ms. A
 * profile of 1,000 items pricing `{{ $json.address }}` (n8n 2.41.1) put 680 of the node's 740 ms
 * there, five times what the HTTP calls and everything else took. So when the parameter is exactly
 * one field of the current item (ONE_ITEM_FIELD) and the item holds that field as a string, number
 * or boolean, the value is read from the item: n8n's `$json` is the same item of the same input
 * (`getInputData()`), and it returns such a value unchanged (the Blockwire node declares no
 * `validateType`, so nothing else changes it). Anything else — another expression, a nested path,
 * a missing field, an object or array value, a name n8n's sandbox refuses, a fixed value — goes
 * through getNodeParameter, as n8n would, errors included.
 */
export function itemParameter(
  context: IExecuteFunctions,
  name: string,
  fallback?: unknown,
): (itemIndex: number) => unknown {
  const evaluate = (itemIndex: number) =>
    fallback === undefined
      ? context.getNodeParameter(name, itemIndex)
      : context.getNodeParameter(name, itemIndex, fallback);
  const field = oneItemField(context.getNode().parameters[name]);
  if (field === undefined) return evaluate;
  const items = context.getInputData();
  return (itemIndex) => {
    const json = items[itemIndex]?.json;
    const value = json !== undefined && Object.hasOwn(json, field) ? json[field] : undefined;
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : evaluate(itemIndex);
  };
}

/** The item field a raw parameter value names, when it is one field of the current item and nothing else. */
export function oneItemField(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = ONE_ITEM_FIELD.exec(raw);
  const field = match?.[1] ?? match?.[2] ?? match?.[3];
  // An n8n without isSafeObjectProperty (older than this package is tested on) evaluates everything.
  if (field === undefined || typeof isSafeObjectProperty !== 'function' || !isSafeObjectProperty(field))
    return undefined;
  return field;
}
