#!/usr/bin/env node
// Writes openapi.json and openrpc.json from the built definitions (run after `tsup`): `pnpm generate` at the root.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument, buildOpenRpcDocument } from '../dist/index.js';

for (const [name, document] of [
  ['openapi.json', buildOpenApiDocument()],
  ['openrpc.json', buildOpenRpcDocument()],
]) {
  const file = new URL(`../${name}`, import.meta.url);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`wrote ${file.pathname}\n`);
}
