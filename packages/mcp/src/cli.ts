/**
 * `blockwire-mcp`: the Blockwire tools over stdio (default) or Streamable HTTP on 127.0.0.1.
 * Logs go to stderr (stdout is the stdio transport's), with the key masked.
 */
// First, and kept out of the bundle: it must run before the modules below are evaluated.
import './node-check.js';
import { parseArgs } from 'node:util';
import { createRedactor } from '@blockwire/core';
import { DEFAULT_ANSWER_TOKENS } from './answers.js';
import { DEFAULT_HOST, startHttpServer } from './http.js';
import {
  checkAnswerTokens,
  clientFromEnvironment,
  createBlockwireMcpServer,
  ENVIRONMENT,
  redactMessage,
  VERSION,
} from './server.js';
import { BoundedStdioTransport } from './stdio.js';

const HELP = `blockwire-mcp ${VERSION}: every Blockwire operation as an MCP tool.

Usage: blockwire-mcp [--read-only] [--max-answer-tokens N] [--http [--port N] [--host ADDR]] [--api-key KEY]

  --read-only             offer only the tools that read (no creates, updates or deletes)
  --max-answer-tokens N   the answer budget, in estimated tokens (bytes ÷ 4; default ${DEFAULT_ANSWER_TOKENS})
  --http                  serve Streamable HTTP instead of stdio
  --port N                the HTTP port (default 3920; 0 picks a free one)
  --host ADDR             the address to listen on (default ${DEFAULT_HOST}); beyond loopback,
                          BLOCKWIRE_MCP_TOKEN must be set and every request must carry it
  --allowed-host NAME     a host name clients use to reach the server (a proxy's), repeatable
  --api-key KEY           the API key (prefer BLOCKWIRE_API_KEY: a flag shows in the process list)
  --help                  this text

Environment:
${Object.entries(ENVIRONMENT)
  .map(([name, meaning]) => `  ${name.padEnd(22)}${meaning}`)
  .join('\n')}
`;

const DEFAULT_PORT = 3920;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'read-only': { type: 'boolean', default: false },
      http: { type: 'boolean', default: false },
      port: { type: 'string' },
      host: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'max-answer-tokens': { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const client = clientFromEnvironment(process.env, values['api-key'] ?? process.env.BLOCKWIRE_API_KEY);
  const token = process.env.BLOCKWIRE_MCP_TOKEN || undefined;
  const tokenMasked = createRedactor(token ? [token] : []);
  const log = (line: string) => process.stderr.write(`${tokenMasked(client.redact(line))}\n`);
  const readOnly = values['read-only'];
  const budget = values['max-answer-tokens'] ?? process.env.BLOCKWIRE_MCP_MAX_ANSWER_TOKENS;
  const answerTokens = checkAnswerTokens(
    budget === undefined || budget === '' ? DEFAULT_ANSWER_TOKENS : Number(budget),
  );
  if (values.http) {
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(values.port)}`);
    }
    const host = values.host ?? (process.env.BLOCKWIRE_MCP_HOST || DEFAULT_HOST);
    const allowedHosts = [
      ...(values['allowed-host'] ?? []),
      ...(process.env.BLOCKWIRE_MCP_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ];
    const running = await startHttpServer({
      client,
      readOnly,
      answerTokens,
      port,
      host,
      token,
      allowedHosts,
      log,
    });
    log(`blockwire-mcp listening on ${running.url}${readOnly ? ' (read-only)' : ''}`);
    const stop = () => void running.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  for (const flag of ['port', 'host', 'allowed-host'] as const) {
    if (values[flag] !== undefined) throw new Error(`--${flag} goes with --http`);
  }
  const server = createBlockwireMcpServer({ client, readOnly, answerTokens });
  const transport = new BoundedStdioTransport({
    redact: redactMessage((text) => tokenMasked(client.redact(text))),
  });
  transport.onerror = (error) => log(`stdio: ${error.message}`);
  await server.connect(transport);
}

/** Every key this process was given (variable or flag), to mask in a message printed before a client exists. */
function givenKeys(): string[] {
  const flag = process.argv.findIndex((arg) => arg === '--api-key' || arg.startsWith('--api-key='));
  const fromFlag = flag < 0 ? undefined : (process.argv[flag]!.split('=')[1] ?? process.argv[flag + 1]);
  return [process.env.BLOCKWIRE_API_KEY, process.env.BLOCKWIRE_MCP_TOKEN, fromFlag].filter(
    (key): key is string => Boolean(key),
  );
}

main().catch((error: unknown) => {
  let message = error instanceof Error ? error.message : String(error);
  for (const key of givenKeys()) message = message.split(key).join('***');
  process.stderr.write(`blockwire-mcp: ${message}\n`);
  process.exit(1);
});
