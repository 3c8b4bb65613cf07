/**
 * The MCP server: the tools of `buildTools`, answered with a Blockwire client. The key lives in
 * that client only; every text that leaves the server passes through its redaction.
 */
import { BASE_URL_VARIABLES, type BaseUrls, type Client, createClient } from '@blockwire/core';
import { redactValue } from '@blockwire/core/operations';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_ANSWER_TOKENS, MIN_ANSWER_TOKENS } from './answers.js';
import { buildTools, callTool, type Tool } from './tools.js';

declare const __BLOCKWIRE_VERSION__: string;
export const VERSION: string = typeof __BLOCKWIRE_VERSION__ === 'string' ? __BLOCKWIRE_VERSION__ : '0.0.0';

export interface BlockwireMcpOptions {
  /** The Blockwire client the tools call with (it holds the key). */
  client: Client;
  /** Leave out every tool that changes state. */
  readOnly?: boolean;
  /** The answer budget in estimated tokens (bytes ÷ 4); default `DEFAULT_ANSWER_TOKENS`. */
  answerTokens?: number;
}

/** A new MCP server offering the tools; connect it to a transport (stdio, Streamable HTTP). */
export function createBlockwireMcpServer(options: BlockwireMcpOptions): Server {
  const answerTokens = checkAnswerTokens(options.answerTokens ?? DEFAULT_ANSWER_TOKENS);
  const tools = buildTools({ readOnly: options.readOnly });
  const byName = new Map<string, Tool>(tools.map((tool) => [tool.definition.name, tool]));
  const server = new Server(
    { name: 'blockwire', title: 'Blockwire', version: VERSION },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = byName.get(name);
    if (!tool) {
      const known = options.readOnly
        ? ' (this server runs with --read-only: tools that change state are off)'
        : '';
      // The specification's answer to an unknown tool: a protocol error, -32602.
      throw Object.assign(new Error(`Unknown tool ${JSON.stringify(name)}${known}.`), {
        code: ErrorCode.InvalidParams,
      });
    }
    return await callTool(tool, options.client, args, { answerTokens });
  });
  return server;
}

export function checkAnswerTokens(tokens: number): number {
  if (!Number.isInteger(tokens) || tokens < MIN_ANSWER_TOKENS) {
    throw new Error(
      `the answer budget must be a whole number of tokens, at least ${MIN_ANSWER_TOKENS}; got ${tokens}`,
    );
  }
  return tokens;
}

/** Masks `redact`'s secrets in every string of a message (results, errors, their data, ids included). */
export function redactMessage(redact: (text: string) => string): (message: JSONRPCMessage) => JSONRPCMessage {
  return (message) => redactValue(message, redact) as JSONRPCMessage;
}

/** The transport, with every message it sends masked first. */
export function redactingTransport<T extends Transport>(transport: T, redact: (text: string) => string): T {
  const send = transport.send.bind(transport);
  const masked = redactMessage(redact);
  transport.send = (message, options) => send(masked(message), options);
  return transport;
}

/** Environment variables the server reads (the demo's names), each with what it means. */
export const ENVIRONMENT: Readonly<Record<string, string>> = {
  BLOCKWIRE_API_KEY: 'the API key (or --api-key)',
  BLOCKWIRE_MCP_MAX_ANSWER_TOKENS: `the answer budget in estimated tokens, bytes ÷ 4 (or --max-answer-tokens; default ${DEFAULT_ANSWER_TOKENS})`,
  BLOCKWIRE_MCP_TOKEN: 'the bearer token HTTP clients must send (needed to listen beyond loopback)',
  BLOCKWIRE_MCP_HOST: 'the address to listen on over HTTP (or --host; default 127.0.0.1)',
  BLOCKWIRE_MCP_ALLOWED_HOSTS:
    'host names, comma-separated, clients may use to reach the HTTP server (a proxy’s name)',
  ...Object.fromEntries(Object.values(BASE_URL_VARIABLES).map(({ name, meaning }) => [name, meaning])),
};

/** A client from the environment: the key and any base URLs given; the SDK's defaults for the rest. */
export function clientFromEnvironment(
  env: Record<string, string | undefined>,
  apiKey = env.BLOCKWIRE_API_KEY,
): Client {
  if (!apiKey) throw new Error('No API key: set BLOCKWIRE_API_KEY (or pass --api-key).');
  const baseUrls: Partial<BaseUrls> = {};
  for (const [api, { name }] of Object.entries(BASE_URL_VARIABLES) as [keyof BaseUrls, { name: string }][]) {
    if (env[name]) baseUrls[api] = env[name];
  }
  return createClient({ apiKey, baseUrls });
}
