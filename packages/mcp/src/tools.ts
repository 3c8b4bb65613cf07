/**
 * The MCP tools, one per action: name, title, description, schemas and annotations all derived
 * from the action's own definition, and the call that turns an SDK answer (or error) into a tool
 * result an agent can act on.
 */
import type { Client, JsonSchema } from '@blockwire/core';
import * as z from 'zod/v4';
import { MCP_ACTIONS, type McpAction } from './actions.js';

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
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
}

export interface Tool {
  definition: ToolDefinition;
  action: McpAction;
  /** Reads only: offered with `--read-only`. */
  readOnly: boolean;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * The JSON form of what a call returns. bigints (block numbers read over JSON-RPC) come back as
 * decimal strings, since JSON has no bigint; `toJson` converts the values the same way.
 */
function outputJsonSchema(schema: z.core.$ZodType | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  const json = z.toJSONSchema(schema, {
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
  return json.type === 'object' ? json : undefined;
}

function describe(action: McpAction): string {
  const lines = [action.summary];
  const paging = action.paging;
  if (paging?.style === 'cursor') {
    lines.push(
      `Paged: pass the \`${paging.nextCursor}\` of an answer as \`${paging.cursorField}\` for the next page${paging.limitField ? `; \`${paging.limitField}\` sets the page size` : ''}.`,
    );
  } else if (paging?.style === 'page') {
    lines.push(
      `Paged: \`${paging.pageField}\` picks the page${paging.limitField ? `, \`${paging.limitField}\` its size` : ''}.`,
    );
  }
  if (action.chunking) {
    lines.push(
      `\`${action.chunking.field}\` takes any number of values: they are sent ${action.chunking.size} per request.`,
    );
  }
  lines.push(`Example input: ${JSON.stringify(action.exampleInputs[0])}`);
  return lines.join('\n');
}

export function toolOf(action: McpAction): Tool {
  const { readOnly } = action;
  const outputSchema = outputJsonSchema(action.output);
  const definition: ToolDefinition = {
    name: action.id,
    title: action.displayName,
    description: describe(action),
    inputSchema: { ...action.inputSchema, type: 'object' },
    annotations: {
      title: action.displayName,
      readOnlyHint: readOnly,
      destructiveHint: action.method === 'DELETE',
      idempotentHint: action.idempotent,
      openWorldHint: true,
    },
  };
  if (outputSchema) definition.outputSchema = { ...outputSchema, type: 'object' };
  return { definition, action, readOnly };
}

/** Every tool, in the SDK's order; `readOnly` leaves out those that change state. */
export function buildTools(options: { readOnly?: boolean } = {}): Tool[] {
  return MCP_ACTIONS.map(toolOf).filter((tool) => !options.readOnly || tool.readOnly);
}

/** JSON-safe copy: bigints become decimal strings. */
export function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, entry) => (typeof entry === 'bigint' ? entry.toString() : entry)),
  );
}

/** Runs a tool; an error of any kind becomes a tool error with the key masked, never a throw. */
export async function callTool(
  tool: Tool,
  client: Client,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  try {
    const answer = toJson(await tool.action.call(client, args));
    const text = client.redact(summarize(tool, answer));
    // The spec asks a tool with structured content to send it as JSON text too, for older clients.
    const result: ToolResult = {
      content: [
        { type: 'text', text },
        { type: 'text', text: client.redact(JSON.stringify(answer)) },
      ],
    };
    if (tool.definition.outputSchema) result.structuredContent = answer as Record<string, unknown>;
    return result;
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { content: [{ type: 'text', text: client.redact(message) }], isError: true };
  }
}

/** A short line an agent (or a person) reads first; the data itself is in structuredContent. */
function summarize(tool: Tool, answer: unknown): string {
  const { action } = tool;
  const paging = action.paging;
  if (paging && typeof answer === 'object' && answer !== null) {
    const record = answer as Record<string, unknown>;
    const items = record[paging.items];
    const count = Array.isArray(items) ? items.length : 0;
    if (paging.style === 'cursor') {
      const cursor = record[paging.nextCursor];
      return typeof cursor === 'string' && cursor !== ''
        ? `${action.displayName}: ${count} item(s); more with ${paging.cursorField}=${JSON.stringify(cursor)}.`
        : `${action.displayName}: ${count} item(s); last page.`;
    }
    return `${action.displayName}: ${count} item(s) on this page.`;
  }
  if (Array.isArray(answer)) return `${action.displayName}: ${answer.length} item(s).`;
  return `${action.displayName}: done.`;
}
