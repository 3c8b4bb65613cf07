/**
 * What a client sends, checked before the SDK's protocol layer sees it, the same way on stdio and
 * over HTTP: a frame that is not JSON gets -32700, one that is not a JSON-RPC message -32600, a
 * request whose params do not have the method's shape -32602, each with a sentence naming the
 * field. The SDK alone would answer a bad `arguments` with -32603 and a dump of zod's issues, and
 * a malformed frame not at all.
 *
 * Batches: the MCP revision the SDK implements (2025-11-25; batching was removed in 2025-06-18)
 * carries one JSON-RPC message per frame or POST, so a JSON array is an invalid request. That also
 * bounds what one POST can make this server do: one `tools/call`.
 */
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  PingRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error answer for a frame that is not taken (no id when none could be read). */
export interface FrameError {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

export type Checked = { message: JSONRPCMessage } | { refused: FrameError };

/** The methods whose params are checked here; others go to the SDK (an unknown one gets -32601). */
const PARAMS_OF: Record<string, { safeParse(value: unknown): SafeParse }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

type SafeParse =
  | { success: true }
  | { success: false; error: { issues: { path: PropertyKey[]; message: string; code?: string }[] } };

export function frameError(id: RequestId | null, code: number, message: string): FrameError {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Checks one frame's text (a stdio line, an HTTP body). */
export function checkFrame(text: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : String(error);
    return {
      refused: frameError(null, ErrorCode.ParseError, `Parse error: the message is not JSON (${reason}).`),
    };
  }
  return checkMessage(value);
}

/** Checks a parsed message. */
export function checkMessage(value: unknown): Checked {
  if (Array.isArray(value)) {
    return refuse(
      null,
      `Invalid request: a batch (JSON array) is not accepted; MCP ${LATEST_PROTOCOL_VERSION} sends one JSON-RPC message at a time.`,
    );
  }
  if (typeof value !== 'object' || value === null) {
    return refuse(null, `Invalid request: a message must be a JSON object, got ${kindOf(value)}.`);
  }
  const record = value as Record<string, unknown>;
  const id = validId(record.id) ? record.id : null;
  if (record.jsonrpc !== '2.0') {
    return refuse(id, `Invalid request: jsonrpc must be "2.0", got ${shown(record.jsonrpc)}.`);
  }
  if ('id' in record && !validId(record.id)) {
    return refuse(null, `Invalid request: id must be a string or an integer, got ${shown(record.id)}.`);
  }
  if ('method' in record && typeof record.method !== 'string') {
    return refuse(id, `Invalid request: method must be a string, got ${shown(record.method)}.`);
  }
  if ('params' in record && (typeof record.params !== 'object' || record.params === null)) {
    return refuse(id, `Invalid request: params must be an object or an array, got ${shown(record.params)}.`);
  }
  const method = typeof record.method === 'string' ? record.method : undefined;
  const schema = method === undefined || id === null ? undefined : PARAMS_OF[method];
  if (schema) {
    const parsed = schema.safeParse(record);
    if (!parsed.success) {
      const problems = parsed.error.issues.slice(0, 3).map(issueSentence).join('; ');
      return {
        refused: frameError(id, ErrorCode.InvalidParams, `Invalid params of ${method}: ${problems}.`),
      };
    }
  }
  const message = JSONRPCMessageSchema.safeParse(record);
  if (!message.success) {
    const problems = message.error.issues.slice(0, 3).map(issueSentence).join('; ');
    return refuse(id, `Invalid request: not a JSON-RPC request, notification or response (${problems}).`);
  }
  return { message: message.data };
}

function refuse(id: RequestId | null, message: string): Checked {
  return { refused: frameError(id, ErrorCode.InvalidRequest, message) };
}

function validId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function issueSentence(issue: { path: PropertyKey[]; message: string }): string {
  const path = issue.path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('');
  return `${path.replace(/^\./, '') || 'the message'}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${kindOf(value)}` : json;
}

/**
 * The top-level `id` of a frame too large to parse, read from its first bytes, so the client's
 * pending request gets its error instead of waiting for a timeout. Only an `id` at depth 1 counts
 * (not one inside `params`); `null` when it is not among the bytes given.
 */
export function idFromPrefix(prefix: string): RequestId | null {
  let depth = 0;
  let i = 0;
  let expectKey = false;
  while (i < prefix.length) {
    const char = prefix[i]!;
    if (char === '"') {
      const end = stringEnd(prefix, i);
      if (end < 0) return null;
      if (depth === 1 && expectKey && prefix.slice(i, end + 1) === '"id"') {
        const value = /^\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)(?=\s*[,}])/.exec(prefix.slice(end + 1));
        if (value) {
          const parsed = JSON.parse(value[1]!) as RequestId;
          return validId(parsed) ? parsed : null;
        }
      }
      expectKey = false;
      i = end + 1;
      continue;
    }
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    if (char === '{' || char === ',') expectKey = depth === 1;
    else if (char !== ' ' && char !== '\n' && char !== '\t' && char !== '\r') expectKey = false;
    i++;
  }
  return null;
}

/** The index of the quote closing the JSON string opened at `start`, or -1 when it is cut off. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
