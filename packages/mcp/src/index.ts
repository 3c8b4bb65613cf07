export { DEFAULT_RPC_CHAIN, MCP_ACTIONS, type McpAction } from './actions.js';
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from './http.js';
export {
  type BlockwireMcpOptions,
  clientFromEnvironment,
  createBlockwireMcpServer,
  ENVIRONMENT,
  VERSION,
} from './server.js';
export { buildTools, callTool, type Tool, type ToolDefinition, type ToolResult, toolOf } from './tools.js';
