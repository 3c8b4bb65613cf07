/**
 * `blockwire-mcp`: the Blockwire tools over stdio (default) or Streamable HTTP on 127.0.0.1.
 * Logs go to stderr (stdout is the stdio transport's), with the key masked.
 */
// First, and kept out of the bundle: it must run before the modules below are evaluated.
import './node-check.js';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startHttpServer } from './http.js';
import { clientFromEnvironment, createBlockwireMcpServer, ENVIRONMENT, VERSION } from './server.js';

const HELP = `blockwire-mcp ${VERSION}: every Blockwire operation as an MCP tool.

Usage: blockwire-mcp [--read-only] [--http [--port N]] [--api-key KEY]

  --read-only     offer only the tools that read (no creates, updates or deletes)
  --http          serve Streamable HTTP on 127.0.0.1 instead of stdio
  --port N        the HTTP port (default 3920; 0 picks a free one)
  --api-key KEY   the API key (prefer BLOCKWIRE_API_KEY: a flag shows in the process list)
  --help          this text

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
      'api-key': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const client = clientFromEnvironment(process.env, values['api-key'] ?? process.env.BLOCKWIRE_API_KEY);
  const log = (line: string) => process.stderr.write(`${client.redact(line)}\n`);
  const readOnly = values['read-only'];
  if (values.http) {
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(values.port)}`);
    }
    const running = await startHttpServer({ client, readOnly, port, log });
    log(`blockwire-mcp listening on ${running.url}${readOnly ? ' (read-only)' : ''}`);
    const stop = () => void running.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  if (values.port !== undefined) throw new Error('--port goes with --http');
  const server = createBlockwireMcpServer({ client, readOnly });
  await server.connect(new StdioServerTransport());
}

/** Every key this process was given (variable or flag), to mask in a message printed before a client exists. */
function givenKeys(): string[] {
  const flag = process.argv.findIndex((arg) => arg === '--api-key' || arg.startsWith('--api-key='));
  const fromFlag = flag < 0 ? undefined : (process.argv[flag]!.split('=')[1] ?? process.argv[flag + 1]);
  return [process.env.BLOCKWIRE_API_KEY, fromFlag].filter((key): key is string => Boolean(key));
}

main().catch((error: unknown) => {
  let message = error instanceof Error ? error.message : String(error);
  for (const key of givenKeys()) message = message.split(key).join('***');
  process.stderr.write(`blockwire-mcp: ${message}\n`);
  process.exit(1);
});
