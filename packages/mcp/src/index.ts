export { DEFAULT_RPC_CHAIN, MCP_ACTIONS, type McpAction } from './actions.js';
export {
  BYTES_PER_TOKEN,
  DEFAULT_ANSWER_TOKENS,
  type Detail,
  estimateTokens,
  LONG_TEXT,
  MIN_ANSWER_TOKENS,
} from './answers.js';
export { checkFrame, checkMessage } from './frames.js';
export {
  bindRefusal,
  DEFAULT_HOST,
  type HttpServerOptions,
  isLoopback,
  MAX_BODY_BYTES,
  MIN_TOKEN_LENGTH,
  type RunningHttpServer,
  startHttpServer,
} from './http.js';
export { CHUNKS_PER_CALL, MAX_BODY_TEXT, MAX_ITEMS, MAX_ONE_BY_ONE, MAX_URL_TEXT } from './limits.js';
export {
  type BlockwireMcpOptions,
  clientFromEnvironment,
  createBlockwireMcpServer,
  ENVIRONMENT,
  redactingTransport,
  redactMessage,
  VERSION,
} from './server.js';
export { BoundedStdioTransport, STDIO_LIMITS, type StdioLimits } from './stdio.js';
export {
  buildTools,
  type CallOptions,
  callTool,
  DETAIL_FIELD,
  type Tool,
  type ToolDefinition,
  type ToolResult,
  toolOf,
} from './tools.js';
