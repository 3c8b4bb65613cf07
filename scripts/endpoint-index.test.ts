import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no declarations
import {
  DEFINITION_FOLDERS,
  ENDPOINT_FOLDERS,
  exportsOf,
  isDefinition,
  renderDefinitionFolder,
  renderFolder,
  renderMethodFolder,
} from './endpoint-index.mjs';

interface DefinitionFolder {
  folder: string;
  suffix: string;
  define: string;
  list: string;
}

const root = join(import.meta.dirname, '..');
let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** `renderFolder` of an operations folder holding one endpoint file, made in a scratch folder. */
function renderOneFile(name: string, source: string): Record<string, string> {
  scratch = mkdtempSync(join(tmpdir(), 'endpoint-index-'));
  const folder = join(scratch, 'operations');
  mkdirSync(folder);
  writeFileSync(join(folder, name), source);
  return renderFolder(folder) as Record<string, string>;
}

describe('the generated endpoint indexes', () => {
  it.each(ENDPOINT_FOLDERS as string[])(
    '%s: index.ts and definitions.ts are what the endpoint files give',
    (folder) => {
      const rendered = renderFolder(join(root, folder)) as Record<string, string>;
      for (const [file, text] of Object.entries(rendered)) {
        expect(
          readFileSync(join(root, folder, file), 'utf8'),
          `${folder}/${file} is stale: run pnpm generate`,
        ).toBe(text);
      }
    },
  );

  it('puts a new endpoint file in both indexes and in `endpoints`, nothing else by hand', () => {
    const { 'index.ts': index, 'definitions.ts': definitions } = renderOneFile(
      'getWidget.ts',
      [
        'export const getWidgetInput = z.strictObject({ id: z.string() });',
        'export type GetWidgetInput = z.input<typeof getWidgetInput>;',
        "export const getWidgetEndpoint = defineEndpoint({ id: 'getWidget' });",
        'export const getWidget = getWidgetEndpoint.call;',
        'export const WIDGET_LIMIT = 10;',
      ].join('\n'),
    );
    expect(index).toContain("export { getWidget, WIDGET_LIMIT, type GetWidgetInput } from './getWidget.js';");
    expect(index).not.toMatch(/Endpoint|getWidgetInput/);
    expect(definitions).toContain("export { getWidgetInput, getWidgetEndpoint } from './getWidget.js';");
    expect(definitions).toContain('export const getWidgetOperation = getWidgetEndpoint.operation;');
    expect(definitions).toMatch(/export const endpoints = \[\n {2}getWidgetEndpoint,\n\] as const;/);
  });

  it('takes an endpoint marked pure (for bundlers) as an endpoint', () => {
    const { 'definitions.ts': definitions } = renderOneFile(
      'getWidgets.ts',
      "export const getWidgetsEndpoint = /* @__PURE__ */ defineEndpoint({ id: 'getWidgets' });\n",
    );
    expect(definitions).toMatch(/export const endpoints = \[\n {2}getWidgetsEndpoint,\n\] as const;/);
  });

  it.each((DEFINITION_FOLDERS as DefinitionFolder[]).map((kind) => [kind.folder, kind] as const))(
    '%s: index.ts is what the files give',
    (folder, kind) => {
      const rendered = renderDefinitionFolder(join(root, folder), kind) as Record<string, string>;
      expect(
        readFileSync(join(root, folder, 'index.ts'), 'utf8'),
        `${folder}/index.ts is stale: run pnpm generate`,
      ).toBe(rendered['index.ts']);
    },
  );

  it('puts a new wallet read in `walletReads`, and re-exports the folder’s shared code', () => {
    scratch = mkdtempSync(join(tmpdir(), 'wallet-index-'));
    const folder = join(scratch, 'wallet');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'getNonce.ts'),
      "export const getNonceRead = defineWalletRead({ id: 'getNonce' });\n",
    );
    writeFileSync(join(folder, 'wallet-read.ts'), 'export function defineWalletRead() {}\n');
    const wallet = (DEFINITION_FOLDERS as DefinitionFolder[]).find((kind) => kind.list === 'walletReads');
    const { 'index.ts': index } = renderDefinitionFolder(folder, wallet) as Record<string, string>;
    expect(index).toContain("import { getNonceRead } from './getNonce.js';");
    expect(index).toContain("export * from './wallet-read.js';");
    expect(index).toMatch(/export const walletReads = \[\n {2}getNonceRead,\n\] as const;/);
  });

  it('puts a new method file in the method index and in `methods`, in file order', () => {
    scratch = mkdtempSync(join(tmpdir(), 'method-index-'));
    const folder = join(scratch, 'methods');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'getWidget.ts'),
      "export const getWidgetMethod = defineRpcMethod({ id: 'getWidget' });\n",
    );
    writeFileSync(join(folder, 'examples.ts'), 'export const exampleWidget = { id: 1 };\n');
    writeFileSync(
      join(folder, 'getApple.ts'),
      "export const getAppleMethod = defineRpcMethod({ id: 'getApple' });\n",
    );
    const { 'index.ts': index } = renderMethodFolder(folder) as Record<string, string>;
    expect(index).toContain("import { getWidgetMethod } from './getWidget.js';");
    expect(index).not.toContain('exampleWidget');
    expect(index).toMatch(
      /export const methods = \[\n {2}getAppleMethod,\n {2}getWidgetMethod,\n\] as const;/,
    );
  });

  it('refuses an export form it cannot sort into public and definitions', () => {
    expect(() => exportsOf("export * from './elsewhere.js';", 'x.ts')).toThrow(
      /x\.ts: unsupported export form/,
    );
    expect(() => exportsOf("export { a } from './a.js';", 'x.ts')).toThrow(/unsupported export form/);
  });

  it('keeps schemas, operations and endpoints out of the main entry', () => {
    expect(
      ['getWidgetInput', 'widgetSchema', 'getWidgetOperation', 'getWidgetEndpoint'].filter(isDefinition),
    ).toHaveLength(4);
    expect(['getWidget', 'GetWidgetInput', 'WIDGET_LIMIT', 'iterateWidgets'].filter(isDefinition)).toEqual(
      [],
    );
  });
});
