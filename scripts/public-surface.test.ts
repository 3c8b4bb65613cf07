/**
 * Each interface package's main entry exports what a user calls — functions, their types,
 * constants — and nothing a user would come to depend on by accident: no operation object, no
 * zod schema, no `actions` table. Those are in the package's `./operations` entry, which exports
 * the main entry's names too (the same values), so a host that builds on the definitions needs
 * one import. Checked on the built files, as they ship.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const interfacePackages = ['prices', 'entities', 'streams', 'rpc'];

type Module = Record<string, unknown>;

async function load(pkg: string, entry: string): Promise<Module> {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'));
  const target = manifest.exports[entry].import.default as string;
  return (await import(join(root, 'packages', pkg, target))) as Module;
}

/** Why a value does not belong in a main entry, or undefined when it does. */
function definitionKind(name: string, value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if ('_zod' in value) return 'a zod schema';
  if ('method' in value && 'path' in value && 'input' in value) return 'an operation object';
  if ('params' in value && 'result' in value && 'method' in value) return 'an RPC method definition';
  if (Array.isArray(value) && ['actions', 'operations', 'methods'].includes(name))
    return 'a table of definitions';
  return undefined;
}

describe.each(interfacePackages)('@blockwire/%s', (pkg) => {
  it('exports from its main entry what a user calls, no definition', async () => {
    const main = await load(pkg, '.');
    const definitions = Object.entries(main)
      .map(([name, value]) => [name, definitionKind(name, value)])
      .filter(([, kind]) => kind !== undefined);
    expect(definitions).toEqual([]);
    expect(Object.values(main).some((value) => typeof value === 'function')).toBe(true);
  });

  it('exports every name of its main entry from ./operations too, the same value, with the definitions', async () => {
    const [main, operations] = await Promise.all([load(pkg, '.'), load(pkg, './operations')]);
    const differing = Object.keys(main).filter((name) => {
      // The main entry's runtime parts (the webhook handler, the stores, `createRpcClient`) are not in
      // the runtime-free entry; everything else is, as the same object.
      return name in operations && operations[name] !== main[name];
    });
    expect(differing).toEqual([]);
    expect(Object.keys(operations).filter((name) => definitionKind(name, operations[name]))).not.toEqual([]);
    expect(operations.actions).toBeInstanceOf(Array);
  });
});

describe('the runtime-free entries hold every user function of their main entry but the runtime ones', () => {
  const runtimeOnly: Record<string, readonly string[]> = {
    streams: [
      'createBitcoinTxTracker',
      'createMemoryTxStore',
      'createSqliteTxStore',
      'createWebhookHandler',
      'toFetchHandler',
      'toNodeListener',
    ],
    rpc: ['createRpcClient'],
  };
  it.each(interfacePackages)('%s', async (pkg) => {
    const [main, operations] = await Promise.all([load(pkg, '.'), load(pkg, './operations')]);
    const onlyInMain = Object.keys(main).filter((name) => !(name in operations));
    expect(onlyInMain.sort()).toEqual([...(runtimeOnly[pkg] ?? [])].sort());
  });
});
