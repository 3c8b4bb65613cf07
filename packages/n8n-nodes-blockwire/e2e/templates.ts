/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test harness: reads the templates for the screenshots and their test; none of it ships (package.json#files is dist). */
/**
 * The package's templates (templates/*.json, every file of the folder) and where each one's
 * screenshot lives (docs/templates/<name>.png, linked from the README's Templates section).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPLATES_DIR = join(PACKAGE_DIR, 'templates');
/** The screenshots' folder, relative to the package (as the README links them). */
export const SCREENSHOTS_DIR = 'docs/templates';
/** The browser window the screenshots are taken in; each is the editor's canvas within it. */
export const SCREENSHOT_VIEWPORT = { width: 1200, height: 700 };

export interface TemplateNode {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, { id: string; name: string }>;
}

export interface Template {
  /** The file name without `.json`: `price-alert-to-webhook`. */
  readonly name: string;
  readonly file: string;
  readonly workflow: { name: string; nodes: TemplateNode[]; connections: unknown };
}

/** Every template of the folder, by file name. */
export function templates(): Template[] {
  return readdirSync(TEMPLATES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({
      name: basename(file, '.json'),
      file,
      workflow: JSON.parse(readFileSync(join(TEMPLATES_DIR, file), 'utf8')) as Template['workflow'],
    }));
}

/** `docs/templates/<name>.png`, relative to the package. */
export function screenshotOf(template: Pick<Template, 'name'>): string {
  return `${SCREENSHOTS_DIR}/${template.name}.png`;
}

/**
 * The template as n8n imports it when the package is loaded as a custom extension: the nodes'
 * types are then `CUSTOM.<name>` instead of the community package's `n8n-nodes-blockwire.<name>`.
 */
export function asCustomExtension(template: Template, id: string) {
  const nodes = template.workflow.nodes.map((node) => ({
    ...node,
    type: node.type.replace(/^n8n-nodes-blockwire\./, 'CUSTOM.'),
  }));
  return { ...template.workflow, nodes, id, active: false };
}

/** The credentials the templates name (by id and name, with their type), each once. */
export function credentialsNamed(all: readonly Template[]): { id: string; name: string; type: string }[] {
  const byId = new Map<string, { id: string; name: string; type: string }>();
  for (const template of all) {
    for (const node of template.workflow.nodes) {
      for (const [type, ref] of Object.entries(node.credentials ?? {})) byId.set(ref.id, { ...ref, type });
    }
  }
  return [...byId.values()];
}
