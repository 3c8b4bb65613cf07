/**
 * `changeset version` bumps package.json files only; the MCP registry metadata
 * (`packages/mcp/server.json`) names the package's version twice and must follow it.
 * Run after `changeset version` (the root `version-packages` script does).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const folder = new URL('../packages/mcp/', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', folder), 'utf8'));
const file = new URL('server.json', folder);
const server = JSON.parse(readFileSync(file, 'utf8'));
server.version = version;
for (const entry of server.packages) entry.version = version;
writeFileSync(file, `${JSON.stringify(server, null, 2)}\n`);
