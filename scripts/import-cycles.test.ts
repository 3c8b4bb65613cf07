import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, type ImportGraph, importGraph } from './import-graph.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every source folder of every workspace package: its `src`, or an n8n package's `nodes`/`credentials`, and its tests. */
function sourceFolders(): string[] {
  const folders: string[] = [];
  for (const group of ['packages', 'apps']) {
    for (const pkg of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      const names = readdirSync(join(root, group, pkg.name));
      for (const folder of ['src', 'nodes', 'credentials', 'test']) {
        if (names.includes(folder)) folders.push(`${group}/${pkg.name}/${folder}`);
      }
    }
  }
  return [...folders, 'bench/src', 'reliability/src'];
}

describe('import cycles', () => {
  const folders = sourceFolders();

  it('finds the source folders of every package', () => {
    expect(folders).toContain('packages/core/src');
    expect(folders).toContain('packages/n8n-nodes-blockwire/nodes');
    expect(folders).toContain('apps/demo/src');
  });

  it.each(folders)('%s imports in one direction only', (folder) => {
    const graph = importGraph(join(root, folder));
    expect(graph.size).toBeGreaterThan(0);
    const cycles = findCycles(graph).map((cycle) => cycle.join(' → '));
    expect(cycles, `import cycles in ${folder}`).toEqual([]);
  });
});

describe('findCycles', () => {
  const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it('finds none in a graph that only points one way', () => {
    expect(findCycles(graphOf({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('names every file of a circle, in import order, back to the first', () => {
    expect(findCycles(graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('lists each way round a component and a file importing itself', () => {
    const cycles = findCycles(graphOf({ a: ['b', 'c'], b: ['a'], c: ['a'], s: ['s'], x: [] }));
    expect(cycles).toEqual([
      ['s', 's'],
      ['a', 'b', 'a'],
      ['c', 'a', 'c'],
    ]);
  });

  it('walks a long chain of imports without running out of stack', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 50_000; i++) edges[`f${i}`] = [`f${i + 1}`];
    edges.f50000 = ['end'];
    edges.end = ['f49999'];
    expect(findCycles(graphOf(edges))).toEqual([['end', 'f49999', 'f50000', 'end']]);
  });
});

describe('importGraph', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blockwire-import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every kind of relative import, type-only ones too', () => {
    const files: Record<string, string> = {
      'a.ts': "import type { B } from './b.js';\nexport type A = B;",
      'b.ts': "export { c } from './c';\nexport type B = string;",
      'c.ts': "export const c = () => import('./lib/index.js');",
      'lib/index.ts': "import { a } from '../d.mjs';\nimport 'node:fs';\nimport '@blockwire/core';",
      'd.mts': "const e = require('./e.cjs');\n// import './a.js' in a comment is not an import",
      'e.cts': "import './missing.js';",
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    expect(Object.fromEntries(importGraph(dir))).toEqual({
      'a.ts': ['b.ts'],
      'b.ts': ['c.ts'],
      'c.ts': ['lib/index.ts'],
      'd.mts': ['e.cts'],
      'e.cts': [],
      'lib/index.ts': ['d.mts'],
    });
  });
});
