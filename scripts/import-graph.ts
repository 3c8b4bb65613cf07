/**
 * The relative imports between the source files of a folder, and the circles in them. Every kind
 * of import counts: `import type` too, since a reader follows a type's import as far as a value's.
 * Imports are read with TypeScript's own pre-processor (the scanner, not a regular expression), so
 * `export … from`, `import('./x.js')` and `require('./x.js')` are edges as well.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** file → the files it imports, every path relative to the folder the graph was read from. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SOURCE = /\.(?:m|c)?tsx?$/;

/** The import graph of every TypeScript file under `root` (test files included). */
export function importGraph(root: string): ImportGraph {
  const files = sourceFiles(root);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(dirname(file), fileName);
      if (target?.startsWith(`${root}/`)) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name)) found.push(path);
  }
  return found.sort();
}

/** The file a relative specifier names, the way TypeScript's bundler/node16 resolution finds it. */
function resolveImport(fromDir: string, specifier: string): string | undefined {
  const base = resolve(fromDir, specifier);
  const stem = base.replace(/\.(?:m|c)?js$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    `${stem}.d.ts`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find((candidate) => SOURCE.test(candidate) && isFile(candidate));
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * Every circle of imports, as the files in import order from the first back to it
 * (`['a.ts', 'b.ts', 'a.ts']`). The strongly connected components are found first (Tarjan); in
 * each, the shortest circle through every file is listed once, so a component of many files shows
 * each way round it that a file is on, not only one.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const cycles = new Map<string, string[]>();
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component);
    const selfLoop = component.length === 1 && (graph.get(component[0]!) ?? []).includes(component[0]!);
    if (component.length === 1 && !selfLoop) continue;
    for (const start of component) {
      const cycle = shortestCycleThrough(graph, start, members);
      if (!cycle) continue;
      const key = canonical(cycle);
      if (!cycles.has(key)) cycles.set(key, cycle);
    }
  }
  return [...cycles.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** Tarjan's algorithm, iterative (a long chain of imports must not overflow the stack). */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** Breadth-first from `start` back to it, inside one component. */
function shortestCycleThrough(graph: ImportGraph, start: string, members: Set<string>): string[] | undefined {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const back = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; at = cameFrom.get(at)) {
          back.push(at);
        }
        back.push(start);
        return back.reverse();
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, node);
      queue.push(target);
    }
  }
  return undefined;
}

/** The same circle read from another file is the same circle. */
function canonical(cycle: string[]): string {
  const ring = cycle.slice(0, -1);
  let best = 0;
  for (let i = 1; i < ring.length; i++) if (ring[i]! < ring[best]!) best = i;
  return [...ring.slice(best), ...ring.slice(0, best)].join(' → ');
}
