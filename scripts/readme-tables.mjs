// The parameter tables of the package READMEs, generated from the actions each package exports
// (field names, wire names, requiredness, defaults, descriptions: all from the operations).
// A README marks where a table goes:
//
//   <!-- parameters: getEvmTokenPrice -->
//   ...generated, replaced on every run...
//   <!-- /parameters -->
//
// `pnpm generate` rewrites them; scripts/readme-tables.test.ts fails when one is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeAction, fieldsIn } from '@blockwire/core';
import { measureAnswers, renderFigures, toolFigures } from './mcp-figures.mjs';

const MARKER = /<!-- parameters: (\w+) -->\n[\s\S]*?<!-- \/parameters -->/g;

/** The packages whose README documents actions, with the actions they export. */
export async function packagesWithActions() {
  const names = ['prices', 'entities', 'streams', 'rpc'];
  return Promise.all(
    names.map(async (name) => ({ name, actions: (await import(`@blockwire/${name}/operations`)).actions })),
  );
}

/** The markdown table of one action's input fields. */
export function parameterTable(action) {
  const description = describeAction(action);
  const placement = wirePlacement(action.operation);
  const rows = description.fields.map((field) => [
    `\`${field.name}\``,
    placement(field.name),
    field.required ? 'yes' : field.default !== undefined ? `no (${JSON.stringify(field.default)})` : 'no',
    escapeCell(field.description + optionsNote(field)),
  ]);
  return table(['Input', 'Sent as', 'Required', 'Description'], rows);
}

function wirePlacement(operation) {
  if (Array.isArray(operation.args)) {
    return (name) => `\`params[${operation.args.indexOf(name)}]\``;
  }
  const placements = new Map(fieldsIn(operation).map((p) => [p.field, p]));
  return (name) => {
    const p = placements.get(name);
    if (!p) return 'one request each';
    const chunked = operation.chunking?.field === name ? `, ≤ ${operation.chunking.size} a request` : '';
    return p.in === 'path' ? 'path' : `${p.in} \`${p.wire}\`${chunked}`;
  };
}

function optionsNote(field) {
  if (field.type !== 'options' || !field.options || field.options.length > 8) return '';
  const values = field.options.map((option) => `\`${option.value}\``).join(', ');
  return field.description.includes(String(field.options[0].value)) ? '' : ` One of: ${values}.`;
}

function escapeCell(text) {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function table(header, rows) {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The README text with every marked table regenerated; throws on a marker naming no action. */
export function renderReadme(text, actions) {
  const byId = new Map(actions.map((action) => [action.operation.id, action]));
  const withoutGenerated = text.replace(UNSECTIONED, UNSECTIONED_EMPTY);
  const sectioned = new Set(tablesIn(withoutGenerated));
  const unsectioned = actions.filter((action) => !sectioned.has(action.operation.id));
  const filled =
    unsectioned.length === 0 || !withoutGenerated.includes(UNSECTIONED_EMPTY)
      ? withoutGenerated
      : withoutGenerated.replace(
          UNSECTIONED_EMPTY,
          `<!-- endpoints without a section -->\n${unsectioned.map(generatedSection).join('\n')}<!-- /endpoints without a section -->`,
        );
  return filled.replace(MARKER, (_whole, id) => {
    const action = byId.get(id);
    if (!action) throw new Error(`README marker names ${id}, which is not an action of this package`);
    return `<!-- parameters: ${id} -->\n${parameterTable(action)}\n<!-- /parameters -->`;
  });
}

/**
 * Where a README lists the endpoints nobody has written a section for yet, each with its summary
 * and its parameter table, so a new endpoint is documented without a hand edit.
 */
const UNSECTIONED = /<!-- endpoints without a section -->\n[\s\S]*?<!-- \/endpoints without a section -->/;
const UNSECTIONED_EMPTY = '<!-- endpoints without a section -->\n<!-- /endpoints without a section -->';

function generatedSection(action) {
  const { id, summary } = action.operation;
  return `## \`${id}(client, input, options?)\`\n\n${summary}.\n\n<!-- parameters: ${id} -->\n<!-- /parameters -->\n\n`;
}

const TOOLS_MARKER = /<!-- tools -->\n[\s\S]*?<!-- \/tools -->/g;

/** The tools of @blockwire/mcp (built from the same actions), for its README's tool list. */
export async function mcpTools() {
  return (await import('../packages/mcp/dist/index.js')).buildTools();
}

/** The markdown table of the MCP tools: name, title, what the hints say, and the summary. */
export function toolTable(tools) {
  const rows = tools.map(({ definition, action }) => {
    const hints = definition.annotations;
    const kind = hints.readOnlyHint ? 'read' : hints.destructiveHint ? 'write, destructive' : 'write';
    return [`\`${definition.name}\``, definition.title, kind, escapeCell(action.summary)];
  });
  return table(['Tool', 'Title', 'Kind', 'What it does'], rows);
}

/** The README text with its tool list regenerated. */
export function renderToolList(text, tools) {
  return text.replace(TOOLS_MARKER, () => `<!-- tools -->\n${toolTable(tools)}\n<!-- /tools -->`);
}

/** The action ids a README has a table for. */
export function tablesIn(text) {
  return [...text.matchAll(MARKER)].map((match) => match[1]);
}

export function readmePath(root, name) {
  return join(root, 'packages', name, 'README.md');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  for (const { name, actions } of await packagesWithActions()) {
    const file = readmePath(root, name);
    const before = readFileSync(file, 'utf8');
    const after = renderReadme(before, actions);
    if (after !== before) writeFileSync(file, after);
    process.stdout.write(`${after === before ? 'fresh' : 'wrote'} ${file}\n`);
  }
  const file = readmePath(root, 'mcp');
  const before = readFileSync(file, 'utf8');
  const after = renderFigures(
    renderToolList(before, await mcpTools()),
    await toolFigures(),
    await measureAnswers(),
  );
  if (after !== before) writeFileSync(file, after);
  process.stdout.write(`${after === before ? 'fresh' : 'wrote'} ${file}\n`);
}
