// Copies what `n8n-node build` copies beside the compiled files: the icons (n8n-nodes-blockwire's,
// the one copy of them) and the node's codex (.node.json) file.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const icons = join('..', 'n8n-nodes-blockwire', 'icons');
mkdirSync(join('dist', 'icons'), { recursive: true });
for (const file of readdirSync(icons)) cpSync(join(icons, file), join('dist', 'icons', file));
for (const file of readdirSync('nodes', { recursive: true }).map(String)) {
  if (!file.endsWith('.node.json')) continue;
  mkdirSync(join('dist', 'nodes', dirname(file)), { recursive: true });
  cpSync(join('nodes', file), join('dist', 'nodes', file));
}
