import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with the `pnpm generate` script
import { answerTable, measureAnswers, renderFigures, toolFigures } from './mcp-figures.mjs';
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

  it('states the tool count and the size of tools/list as `node scripts/mcp-figures.mjs` prints them', async () => {
    const figures = await toolFigures();
    const answers = { rows: [] };
    // The answer sizes are held by the test below; this one compares everything else.
    const outsideAnswers = (readme: string) =>
      readme.replace(/<!-- answer sizes -->[\s\S]*?<!-- \/answer sizes -->/, '');
    expect(outsideAnswers(text)).toBe(outsideAnswers(renderFigures(text, figures, answers)));
    expect(text).toContain(`${figures.tools} tools (${figures.readOnlyTools} with \`--read-only\`)`);
    expect(text).not.toMatch(/\b17 (read-only )?tools\b/);
    expect(text).not.toContain('emulator:start');
  });

  // Answer sizes come from the emulator's (deterministic) answers; a stream's timestamps may differ
  // by a character between runs, so each figure is held to within 2% or 2 tokens.
  it('shows the largest answer of every tool as measured now, each within the default budget', async () => {
    const measured: {
      rows: { tool: string; before: number; concise: number; full: number }[];
      budget: number;
    } = await measureAnswers();
    const shown = new Map(
      [...text.matchAll(/^\| `(\w+)` +\| ([\d,]+) +\| ([\d,]+) +\| ([\d,]+) +\|$/gm)].map((row) => [
        row[1],
        row.slice(2, 5).map((cell) => Number(cell.replace(/,/g, ''))),
      ]),
    );
    expect([...shown.keys()].sort()).toEqual(measured.rows.map((row) => row.tool).sort());
    const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(2, 0.02 * b);
    for (const row of measured.rows) {
      const [before, concise, full] = shown.get(row.tool)!;
      const context = `${row.tool}: README ${[before, concise, full]}, measured ${[row.before, row.concise, row.full]} (run \`pnpm generate\`)\n${answerTable(measured)}`;
      expect(near(before!, row.before) && near(concise!, row.concise) && near(full!, row.full), context).toBe(
        true,
      );
      expect(row.concise).toBeLessThanOrEqual(measured.budget);
      expect(row.full).toBeLessThanOrEqual(measured.budget);
    }
  }, 120_000);
});
