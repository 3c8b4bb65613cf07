/**
 * How much one tool call may ask for, checked before anything is sent: a text that goes into a URL
 * (path or query) at most `MAX_URL_TEXT` characters, one in a request body at most
 * `MAX_BODY_TEXT`; a list the SDK chunks at most `CHUNKS_PER_CALL` requests' worth; any other list
 * at most `MAX_ITEMS`. The contract states no maximum for most fields; these are what servers and
 * proxies on the way commonly take (8 KiB request lines) with room for the rest of the URL, and
 * what keeps one call from turning into more than a few service requests.
 */
import type { JsonSchema } from '@blockwire/core';
import type { McpAction } from './actions.js';

export const MAX_URL_TEXT = 2_048;
export const MAX_BODY_TEXT = 65_536;
export const MAX_ITEMS = 100;
export const CHUNKS_PER_CALL = 10;
/** A list the action sends one request per item (the service takes one a request). */
export const MAX_ONE_BY_ONE = 20;

export interface FieldLimit {
  maxLength?: number;
  maxItems?: number;
  /** Why, for the error: "it is sent in the URL". */
  because: string;
}

/** The limit of each top-level field of an action's input. */
export function limitsOf(action: McpAction): Map<string, FieldLimit> {
  const placements = action.placements;
  const limits = new Map<string, FieldLimit>();
  const properties = (action.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(properties)) {
    const placement = placements?.get(name);
    const inUrl = placement === 'path' || placement === 'query';
    const because = inUrl ? 'it is sent in the URL' : 'it is sent in the request body';
    const limit: FieldLimit = { because, maxLength: inUrl ? MAX_URL_TEXT : MAX_BODY_TEXT };
    if (takes(schema, 'array')) {
      if (action.chunking?.field === name) {
        limit.maxItems = action.chunking.size * CHUNKS_PER_CALL;
        limit.because = `${action.chunking.size} are sent a request, ${CHUNKS_PER_CALL} requests at most per call`;
      } else if (placements && placement === undefined) {
        limit.maxItems = MAX_ONE_BY_ONE;
        limit.because = `the service takes one a request, ${MAX_ONE_BY_ONE} requests at most per call`;
      } else {
        limit.maxItems = MAX_ITEMS;
      }
    }
    limits.set(name, limit);
  }
  return limits;
}

function takes(schema: JsonSchema, type: string): boolean {
  if (schema.type === type) return true;
  const variants = [...((schema.anyOf as JsonSchema[]) ?? []), ...((schema.oneOf as JsonSchema[]) ?? [])];
  return variants.some((variant) => takes(variant, type));
}

/** The first input field over its limit, as a sentence; undefined when all are within. */
export function overLimit(
  input: Record<string, unknown>,
  limits: Map<string, FieldLimit>,
): string | undefined {
  for (const [name, value] of Object.entries(input)) {
    const limit = limits.get(name);
    if (!limit) continue;
    if (Array.isArray(value)) {
      if (limit.maxItems !== undefined && value.length > limit.maxItems) {
        return `${name}: ${value.length} items is more than the ${limit.maxItems} one call takes (${limit.because}); split them over several calls.`;
      }
      const long = value.findIndex(
        (item) => typeof item === 'string' && item.length > (limit.maxLength ?? Infinity),
      );
      if (long >= 0) return `${name}[${long}]: ${tooLong(value[long] as string, limit)}`;
    } else if (typeof value === 'string' && limit.maxLength !== undefined && value.length > limit.maxLength) {
      return `${name}: ${tooLong(value, limit)}`;
    }
  }
  return undefined;
}

function tooLong(text: string, limit: FieldLimit): string {
  return `${text.length} characters is more than the ${limit.maxLength} this tool takes (${limit.because}).`;
}
