/**
 * The MCP server: the tools of `buildTools`, answered with a Blockwire client. The key lives in
 * that client only; every text that leaves the server passes through its redaction.
 */
import { BASE_URL_VARIABLES, type BaseUrls, type Client, createClient } from '@blockwire/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { buildTools, callTool, type Tool } from './tools.js';

declare const __BLOCKWIRE_VERSION__: string;
export const VERSION: string = typeof __BLOCKWIRE_VERSION__ === 'string' ? __BLOCKWIRE_VERSION__ : '0.0.0';

export interface BlockwireMcpOptions {
  /** The Blockwire client the tools call with (it holds the key). */
  client: Client;
  /** Leave out every tool that changes state. */
  readOnly?: boolean;
}

/** A new MCP server offering the tools; connect it to a transport (stdio, Streamable HTTP). */
export function createBlockwireMcpServer(options: BlockwireMcpOptions): Server {
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
      return {
        content: [{ type: 'text' as const, text: `Unknown tool ${JSON.stringify(name)}${known}.` }],
        isError: true,
      };
    }
    return await callTool(tool, options.client, args);
  });
  return server;
}

/** Environment variables the server reads (the demo's names), each with what it means. */
export const ENVIRONMENT: Readonly<Record<string, string>> = {
  BLOCKWIRE_API_KEY: 'the API key (or --api-key)',
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
