#!/usr/bin/env node
// Writes openapi.json from the built operations (run after `tsup`): `pnpm generate` at the root.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../dist/index.js';

const file = new URL('../openapi.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${file.pathname}\n`);
