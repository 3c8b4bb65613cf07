/**
 * What a language model is told about an action it may call, built from the action's own
 * metadata: its summary, what it returns (from the response schema), how it pages, what one call
 * may ask for, what each field takes. The MCP tools and the n8n node's AI-tool description both
 * use it, so both say the same thing the same way.
 */
import type * as z from 'zod/v4/core';
import { toJSONSchema } from 'zod/v4/core';
import type { FieldInfo, JsonSchema, Paging } from './metadata.js';

/**
 * The JSON form of what a call returns. bigints (block numbers read over JSON-RPC) read as
 * decimal strings, since JSON has none.
 */
export function outputJsonSchema(schema: z.$ZodType | undefined): JsonSchema {
  if (!schema) return {};
  const { $schema: _, ...json } = toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    override(ctx) {
      const def = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === 'bigint') {
        for (const key of Object.keys(ctx.jsonSchema))
          delete (ctx.jsonSchema as Record<string, unknown>)[key];
        Object.assign(ctx.jsonSchema, { type: 'string', pattern: '^-?[0-9]+$' });
      }
    },
  }) as JsonSchema;
  return json;
}

/** What an answer holds, in a few words: "an object (tokenName, usdPrice, … 12 fields)". */
export function shapeOf(schema: JsonSchema, depth = 0): string {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants && depth < 3) {
    const nullable = variants.some((variant) => variant.type === 'null');
    const shapes = [...new Set(variants.filter((v) => v.type !== 'null').map((v) => shapeOf(v, depth + 1)))];
    return `${shapes.join(' or ')}${nullable ? ', or null' : ''}`;
  }
  if (schema.type === 'array') {
    const items = schema.items as JsonSchema | undefined;
    if (!items || depth >= 3) return 'a list';
    // "a list of objects (id, name)", "a list of strings"
    const item = shapeOf(items, depth + 1).replace(/^an? /, '');
    const [noun = '', ...rest] = item.split(' ');
    return `a list of ${[noun.endsWith('s') ? noun : `${noun}s`, ...rest].join(' ')}`;
  }
  if (schema.type === 'object' && schema.properties) {
    const names = Object.keys(schema.properties as object);
    const shown = names.slice(0, 6).join(', ');
    return `an object (${shown}${names.length > 6 ? `, … ${names.length} fields` : ''})`;
  }
  if (typeof schema.type === 'string') return `a ${schema.type}`;
  return 'the service’s answer';
}

/** Whether a JSON Schema says anything about its value's shape (a transform's output does not). */
export function hasShape(schema: JsonSchema): boolean {
  return schema.type !== undefined || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
}

/** The JSON Schema a value has, as far as shapeOf reads it: for an answer whose schema says nothing (an example's). */
export function schemaOfValue(value: unknown, depth = 0): JsonSchema {
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) {
    return depth < 3 && value.length > 0
      ? { type: 'array', items: schemaOfValue(value[0], depth + 1) }
      : { type: 'array' };
  }
  if (typeof value === 'object') {
    const entries = depth < 3 ? Object.entries(value as object) : [];
    return {
      type: 'object',
      properties: Object.fromEntries(entries.map(([key, entry]) => [key, schemaOfValue(entry, depth + 1)])),
    };
  }
  return { type: typeof value === 'bigint' ? 'string' : typeof value };
}

export interface AgentDescription {
  /** The action's one-sentence summary. */
  summary: string;
  /** Where the answer is, before its shape: `structuredContent.result` (MCP), `one item per entry` (n8n). */
  returnsIn?: string;
  /** The answer's JSON Schema (see `outputJsonSchema`). */
  output: JsonSchema;
  /** How the caller pages: said when the caller passes the cursor or page itself. */
  paging?: Paging;
  /** What one call may ask for, each a phrase: "`addresses` at most 1000 (100 are sent a request)". */
  limits?: readonly string[];
  /** The fields the model fills, each with what it takes (its description, and its names to pick from). */
  fields?: readonly Pick<FieldInfo, 'name' | 'description' | 'options' | 'required'>[];
  /** An input that works. */
  example?: Record<string, unknown>;
}

/** The description a model reads, one line each: what it does, returns, how it pages, its limits, fields, an example. */
export function describeForAgent(parts: AgentDescription): string {
  const lines = [`${parts.summary.replace(/\.$/, '')}.`];
  const where = parts.returnsIn ? ` ${parts.returnsIn}` : '';
  lines.push(`Returns${where}: ${shapeOf(parts.output)}.`);
  const paging = parts.paging;
  if (paging?.style === 'cursor') {
    lines.push(
      `Paged: pass the \`${paging.nextCursor}\` of an answer as \`${paging.cursorField}\` for the next page${paging.limitField ? `; \`${paging.limitField}\` sets the page size` : ''}.`,
    );
  } else if (paging?.style === 'page') {
    lines.push(
      `Paged: \`${paging.pageField}\` picks the page${paging.limitField ? `, \`${paging.limitField}\` its size` : ''}.`,
    );
  }
  if (parts.limits && parts.limits.length > 0) lines.push(`Per call: ${parts.limits.join('; ')}.`);
  for (const field of parts.fields ?? []) {
    const names = field.options?.length
      ? ` Names: ${field.options.map((o) => String(o.value)).join(', ')}.`
      : '';
    const text = `${field.description.replace(/\.$/, '')}.${names}`.replace(/^\.\s*/, '').trim();
    lines.push(`\`${field.name}\`${field.required ? '' : ' (optional)'}: ${text}`);
  }
  if (parts.example) lines.push(`Example input: ${JSON.stringify(parts.example)}`);
  return lines.join('\n');
}
