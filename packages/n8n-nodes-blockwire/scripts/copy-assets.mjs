// Copies what `n8n-node build` copies beside the compiled files: the icons and each node's codex
// (.node.json) file, so every `file:` icon path and codex resolves in dist/ as it does in the source.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const assets = [
  ...readdirSync('icons').map((file) => join('icons', file)),
  ...readdirSync('nodes', { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.node.json'))
    .map((file) => join('nodes', file)),
];
for (const file of assets) {
  mkdirSync(join('dist', dirname(file)), { recursive: true });
  cpSync(file, join('dist', file));
}
