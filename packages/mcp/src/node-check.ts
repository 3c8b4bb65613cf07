/**
 * The CLI imports this first, and its build keeps it a separate file (tsup.config.ts), so it runs
 * before any other module is evaluated: on a Node.js too old, one sentence and exit code 1
 * instead of a crash inside undici.
 */
import { unsupportedNodeMessage } from '@blockwire/core/node-version';

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  process.stderr.write(`blockwire-mcp: ${unsupported}\n`);
  process.exit(1);
}
