/**
 * The MCP tools, one per action: name, title, description, schemas and annotations all derived
 * from the action's own definition, and the call that turns an SDK answer (or error) into a tool
 * result an agent can act on: the JSON once, as `structuredContent` (`{ result, omitted?, cut? }`),
 * with a short text saying what it holds; concise by default and within the answer budget.
 */
import type { Client, JsonSchema } from '@blockwire/core';
import { describeForAgent, outputJsonSchema, redactValue } from '@blockwire/core/operations';
import type * as z from 'zod/v4';
import { MCP_ACTIONS, type McpAction } from './actions.js';
import {
  BYTES_PER_TOKEN,
  byteLength,
  concise,
  DEFAULT_ANSWER_TOKENS,
  DETAILS,
  type Detail,
  fitToBudget,
  LONG_TEXT,
  type Shaped,
} from './answers.js';
import { type FieldLimit, limitsOf, MAX_URL_TEXT, overLimit } from './limits.js';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
}

export interface Tool {
  definition: ToolDefinition;
  action: McpAction;
  /** Reads only: offered with `--read-only`. */
  readOnly: boolean;
  /** Takes `detail` (its answers can hold lists and long texts). */
  detailed: boolean;
  limits: Map<string, FieldLimit>;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CallOptions {
  /** The answer budget in estimated tokens (bytes ÷ 4); default `DEFAULT_ANSWER_TOKENS`. */
  answerTokens?: number;
}

/** The input field that picks the answer's shape; no action may have a field of that name. */
export const DETAIL_FIELD = 'detail';

/** The JSON form of what a call returns, kept short (see `loosened`). */
function outputSchemaOf(schema: z.core.$ZodType | undefined): JsonSchema {
  return loosened(outputJsonSchema(schema)) as JsonSchema;
}

/**
 * An output schema a concise or cut answer still meets, kept short (every tool's schema is in
 * every `tools/list`): the answer's type and its top-level fields with their types; no field
 * required, no least length; deeper levels only as `object` or `array`.
 */
function loosened(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null) return {};
  const source = schema as JsonSchema;
  const kept: JsonSchema = {};
  if (source.type !== undefined) kept.type = source.type;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(source[key]))
      kept[key] = (source[key] as unknown[]).map((variant) => loosened(variant, depth));
  }
  if (depth === 0 && source.properties) {
    kept.properties = Object.fromEntries(
      Object.entries(source.properties as Record<string, unknown>).map(([name, field]) => [
        name,
        loosened(field, depth + 1),
      ]),
    );
  }
  if (depth === 0 && source.type === 'array' && source.items) kept.items = loosened(source.items, depth + 1);
  if (depth > 0 && kept.anyOf) return simplestOf(kept.anyOf as JsonSchema[]);
  return kept;
}

/** One level down, a union as the list of its types (`["string", "null"]`), or anything. */
function simplestOf(variants: JsonSchema[]): JsonSchema {
  const types = variants.map((variant) => variant.type);
  return types.every((type) => typeof type === 'string') ? { type: [...new Set(types as string[])] } : {};
}

/** The envelope every tool answers in. */
function envelopeSchema(result: JsonSchema): JsonSchema & { type: 'object' } {
  return {
    type: 'object',
    properties: {
      result,
      omitted: { type: 'array' },
      cut: { type: 'array' },
    },
    required: ['result'],
  };
}

/**
 * The action's input schema as a model reads it: the n8n-only keys (`options`, `placeholder`) out,
 * a list of names that is not an enum kept as a sentence of the description, and each field's
 * limit (`maxLength`, `maxItems`) in.
 */
function compactInput(schema: JsonSchema, limits: Map<string, FieldLimit>): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const compacted: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(properties)) {
    const { options, placeholder: _, ...rest } = field as JsonSchema & { options?: { value: unknown }[] };
    const property: JsonSchema = { ...rest };
    if (Array.isArray(options) && !property.enum) {
      const names = options.map((option) => String(option.value)).join(', ');
      property.description = `${property.description ?? ''} Names: ${names}.`.trim();
    }
    const limit = limits.get(name);
    if (limit?.maxItems !== undefined && property.maxItems === undefined) property.maxItems = limit.maxItems;
    // Shown only where it tells something: a text in the URL with no pattern bounding it already.
    if (limit?.maxLength === MAX_URL_TEXT) withMaxLength(property, limit.maxLength);
    compacted[name] = property;
  }
  return { ...schema, properties: compacted };
}

/** Adds `maxLength` to every string form of a field (and of its items) not bounded otherwise. */
function withMaxLength(schema: JsonSchema, max: number): void {
  const bounded = schema.pattern !== undefined || schema.enum !== undefined || schema.format !== undefined;
  if (
    schema.type === 'string' &&
    !bounded &&
    (typeof schema.maxLength !== 'number' || schema.maxLength > max)
  )
    schema.maxLength = max;
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null) {
    schema.items = { ...(schema.items as JsonSchema) };
    withMaxLength(schema.items as JsonSchema, max);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      schema[key] = (schema[key] as JsonSchema[]).map((variant) => {
        const copy = { ...variant };
        withMaxLength(copy, max);
        return copy;
      });
    }
  }
}

function describe(
  action: McpAction,
  tool: { detailed: boolean; limits: Map<string, FieldLimit> },
  output: JsonSchema,
): string {
  const lists = [...tool.limits].filter(([, limit]) => limit.maxItems !== undefined);
  return describeForAgent({
    summary: action.summary,
    returnsIn: 'structuredContent.result',
    output,
    ...(action.paging ? { paging: action.paging } : {}),
    limits: lists.map(
      ([name, limit]) =>
        `\`${name}\` at most ${limit.maxItems} (${limit.because.replace(/, \d+ requests at most per call$/, '')})`,
    ),
    ...(action.exampleInputs[0] ? { example: action.exampleInputs[0] } : {}),
  });
}

export function toolOf(action: McpAction): Tool {
  const { readOnly } = action;
  const properties = (action.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  if (DETAIL_FIELD in properties)
    throw new Error(`${action.id}: an input field is named ${DETAIL_FIELD}, which the MCP tools reserve`);
  const output = outputSchemaOf(action.output);
  const limits = limitsOf(action);
  const detailed = !action.output || JSON.stringify(output).includes('"array"');
  const { $schema: _, ...input } = compactInput(action.inputSchema, limits);
  if (detailed) {
    input.properties = {
      ...(input.properties as object),
      [DETAIL_FIELD]: {
        type: 'string',
        enum: [...DETAILS],
        default: 'concise',
        description: `concise leaves out, and names, texts over ${LONG_TEXT} characters (blooms, proofs, call data); full keeps them.`,
      },
    };
  }
  const definition: ToolDefinition = {
    name: action.id,
    title: action.displayName,
    description: describe(action, { detailed, limits }, output),
    inputSchema: { ...input, type: 'object' },
    outputSchema: envelopeSchema(output),
    annotations: {
      title: action.displayName,
      readOnlyHint: readOnly,
      destructiveHint: action.method === 'DELETE',
      idempotentHint: action.idempotent,
      openWorldHint: true,
    },
  };
  return { definition, action, readOnly, detailed, limits };
}

/** Every tool, in the SDK's order; `readOnly` leaves out those that change state. */
export function buildTools(options: { readOnly?: boolean } = {}): Tool[] {
  return MCP_ACTIONS.map(toolOf).filter((tool) => !options.readOnly || tool.readOnly);
}

/** JSON-safe copy: bigints become decimal strings. */
export function toJson(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, entry) => (typeof entry === 'bigint' ? entry.toString() : entry));
  return text === undefined ? null : JSON.parse(text);
}

function toolError(text: string, redact: (text: string) => string): ToolResult {
  return { content: [{ type: 'text', text: redact(text) }], isError: true };
}

/**
 * Runs a tool; an error of any kind becomes a tool error with the key masked, never a throw. The
 * answer is masked deeply (every string and key), shaped (concise unless `detail: "full"`), and
 * cut to the budget.
 */
export async function callTool(
  tool: Tool,
  client: Client,
  args: Record<string, unknown>,
  options: CallOptions = {},
): Promise<ToolResult> {
  const { [DETAIL_FIELD]: detail = 'concise', ...input } = args;
  if (tool.detailed && !DETAILS.includes(detail as Detail)) {
    return toolError(
      `${DETAIL_FIELD}: must be "concise" or "full", got ${JSON.stringify(detail)}.`,
      client.redact,
    );
  }
  if (!tool.detailed && args[DETAIL_FIELD] !== undefined) {
    return toolError(
      `${DETAIL_FIELD}: ${tool.definition.name} has no detail to choose (its answers are small).`,
      client.redact,
    );
  }
  const tooMuch = overLimit(input, tool.limits);
  if (tooMuch) return toolError(`Invalid input of ${tool.definition.name}: ${tooMuch}`, client.redact);
  let answer: unknown;
  try {
    answer = redactValue(toJson(await tool.action.call(client, input)), client.redact);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return toolError(message, client.redact);
  }
  const maxBytes = (options.answerTokens ?? DEFAULT_ANSWER_TOKENS) * BYTES_PER_TOKEN;
  const shaped = detail === 'full' ? { result: answer, omitted: [], cut: [] } : concise(answer);
  const fitted = fitToBudget(shaped, maxBytes, (candidate) =>
    byteLength(JSON.stringify(resultOf(tool, candidate, input, maxBytes))),
  );
  return resultOf(tool, fitted, input, maxBytes);
}

function resultOf(tool: Tool, shaped: Shaped, input: Record<string, unknown>, maxBytes: number): ToolResult {
  const structured: Record<string, unknown> = { result: shaped.result };
  if (shaped.omitted.length > 0) structured.omitted = shaped.omitted;
  if (shaped.cut.length > 0) structured.cut = shaped.cut;
  return {
    content: [{ type: 'text', text: summarize(tool, shaped, input, maxBytes) }],
    structuredContent: structured,
  };
}

/** A short text an agent (or a person) reads first; the data itself is in structuredContent.result. */
function summarize(tool: Tool, shaped: Shaped, input: Record<string, unknown>, maxBytes: number): string {
  const { action } = tool;
  const answer = shaped.result;
  const sentences: string[] = [];
  const paging = action.paging;
  if (paging && typeof answer === 'object' && answer !== null && !Array.isArray(answer)) {
    const record = answer as Record<string, unknown>;
    const items = record[paging.items];
    const count = Array.isArray(items) ? items.length : 0;
    const cursor = paging.style === 'cursor' ? record[paging.nextCursor] : undefined;
    sentences.push(
      paging.style !== 'cursor'
        ? `${action.displayName}: ${count} item(s) on this page.`
        : typeof cursor === 'string' && cursor !== ''
          ? `${action.displayName}: ${count} item(s); more with ${paging.cursorField}=${JSON.stringify(cursor)}.`
          : `${action.displayName}: ${count} item(s); last page.`,
    );
  } else if (Array.isArray(answer)) {
    sentences.push(`${action.displayName}: ${answer.length} item(s).`);
  } else if (answer === null && !shaped.omitted.includes('result')) {
    sentences.push(`${action.displayName}: null (nothing found).`);
  } else {
    sentences.push(`${action.displayName}: the answer is in structuredContent.result.`);
  }
  if (shaped.omitted.length > 0) {
    const shown = shaped.omitted.slice(0, 5).join(', ');
    const more = shaped.omitted.length > 5 ? ` and ${shaped.omitted.length - 5} more` : '';
    sentences.push(
      `Left out (long texts, or too large for the answer budget): ${shown}${more}; ${tool.detailed ? `\`${DETAIL_FIELD}: "full"\` keeps long texts.` : ''}`.trim(),
    );
  }
  if (shaped.cut.length > 0) {
    const cuts = shaped.cut.map((cut) => `${cut.path} shows ${cut.shown} of ${cut.total}`).join(', ');
    sentences.push(
      `Cut to fit the answer budget of ${maxBytes / BYTES_PER_TOKEN} tokens: ${cuts}. For the rest: ${narrower(tool, input)}.`,
    );
  }
  return sentences.join(' ');
}

/** How to ask for what did not fit: a smaller page, fewer values, or the short form. */
function narrower(tool: Tool, input: Record<string, unknown>): string {
  const { action } = tool;
  const paging = action.paging;
  if (paging?.limitField) {
    return `ask for smaller pages (\`${paging.limitField}\`) and follow ${paging.style === 'cursor' ? `\`${paging.cursorField}\`` : `\`${paging.pageField}\``}`;
  }
  const lists = Object.entries(input).filter(([, value]) => Array.isArray(value) && value.length > 1);
  if (lists.length > 0)
    return `call again with fewer \`${lists[0]![0]}\` at a time (this call had ${(lists[0]![1] as unknown[]).length})`;
  const flags = Object.entries(input).filter(([, value]) => value === true);
  if (flags.length > 0)
    return `call without \`${flags[0]![0]}\` for the short form, then ask for the parts you need`;
  return input[DETAIL_FIELD] === 'full' ? `leave \`${DETAIL_FIELD}\` at "concise"` : 'narrow the call';
}
