import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with the `pnpm generate` script
import {
  mcpTools,
  packagesWithActions,
  readmePath,
  renderReadme,
  renderToolList,
  tablesIn,
} from './readme-tables.mjs';

const root = join(import.meta.dirname, '..');
type Action = { operation: { id: string } };
const packages: { name: string; actions: Action[] }[] = await packagesWithActions();

describe.each(packages)('packages/$name/README.md', ({ name, actions }) => {
  const text = readFileSync(readmePath(root, name), 'utf8');

  it('has a parameter table for every action of the package', () => {
    expect(tablesIn(text).sort()).toEqual(actions.map((action) => action.operation.id).sort());
  });

  it('has its tables as generated from the operations (run `pnpm generate` after changing one)', () => {
    expect(text).toBe(renderReadme(text, actions));
  });
});

describe('packages/mcp/README.md', () => {
  const text = readFileSync(readmePath(root, 'mcp'), 'utf8');

  it('lists every tool, as generated from the actions (run `pnpm generate` after changing one)', async () => {
    const tools: { definition: { name: string } }[] = await mcpTools();
    expect(text).toContain('<!-- tools -->');
    for (const tool of tools) expect(text).toContain(`\`${tool.definition.name}\``);
    expect(text).toBe(renderToolList(text, tools));
  });
});
