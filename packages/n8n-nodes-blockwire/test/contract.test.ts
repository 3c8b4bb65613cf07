/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';

/**
 * The parameters saved workflows depend on, frozen (issue 21, point 14): one row per resource,
 * operation and parameter (a collection's options as `options.toBlock`), with its type and
 * default, as the node's generated description has them. Renaming an SDK field or changing a
 * default changes a row and fails here. `pnpm generate` (which runs this with
 * `BLOCKWIRE_UPDATE_CONTRACT=1`) writes new rows and new types or defaults, but refuses to drop a
 * row, a parameter that saved workflows may hold, unless a changeset releases the node as a major
 * version and names the parameter as `resource.operation.parameter` (see `removalsAllowed`); once
 * a version is released, such a change also bumps the node's version the n8n way (`version: [1, 2]`).
 * A parameter that moves is not a removal when its old place stays for the versions saved with it:
 * Chain of Get EVM Token Price moved from `options.chain` to `chain` in version 2, and the row
 * `tokenPrice.getEvm.options.chain` stays, shown for version 1 only (`@version` display options,
 * which these rows do not record; test/chain-parameter.test.ts runs a saved version-1 node).
 */
const CONTRACT = join(__dirname, 'contract.json');
const CHANGESETS = join(__dirname, '..', '..', '..', '.changeset');

const keyOf = ([resource, operation, parameter]: Row) => `${resource}.${operation}.${parameter}`;

/**
 * The rows a changeset allows to go: each named (`tokenPrice.getEvm.options.toBlock`) in a
 * changeset that releases `n8n-nodes-blockwire` as `major`, the only honest way to break a saved workflow.
 */
function removalsAllowed(changesets: readonly string[]): Set<string> {
  const allowed = new Set<string>();
  for (const text of changesets) {
    const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
    if (!/^\s*["']?n8n-nodes-blockwire["']?\s*:\s*major\s*$/m.test(front)) continue;
    for (const [, name] of text
      .slice(front.length)
      .matchAll(/`([A-Za-z0-9*]+\.[A-Za-z0-9*]+\.[A-Za-z0-9.]+)`/g)) {
      allowed.add(name!);
    }
  }
  return allowed;
}

function changesetTexts(): string[] {
  if (!existsSync(CHANGESETS)) return [];
  return readdirSync(CHANGESETS)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .map((name) => readFileSync(join(CHANGESETS, name), 'utf8'));
}

/** The committed rows whose parameter is gone (a rename is one of these and a new row) and no changeset allows. */
function unallowedRemovals(
  committed: readonly Row[],
  current: readonly Row[],
  allowed: Set<string>,
): string[] {
  const present = new Set(current.map(keyOf));
  return committed.map(keyOf).filter((key) => !present.has(key) && !allowed.has(key));
}

type Row = [resource: string, operation: string, parameter: string, type: string, defaultValue: unknown];

function rowsOf(properties: readonly INodeProperties[]): Row[] {
  const rows: Row[] = [];
  for (const property of properties) {
    const show = property.displayOptions?.show ?? {};
    const resources = (show.resource as string[] | undefined) ?? ['*'];
    const operations = (show.operation as string[] | undefined) ?? ['*'];
    for (const resource of resources) {
      for (const operation of operations) {
        rows.push([resource, operation, property.name, property.type, property.default]);
        if (property.type !== 'collection') continue;
        for (const option of (property.options ?? []) as INodeProperties[]) {
          rows.push([resource, operation, `${property.name}.${option.name}`, option.type, option.default]);
        }
      }
    }
  }
  return rows;
}

describe('the frozen parameter contract of the Blockwire node', () => {
  it('the generated description matches the committed (resource, operation, parameter, type, default) rows', () => {
    const rows = rowsOf(new Blockwire().description.properties);
    if (process.env.BLOCKWIRE_UPDATE_CONTRACT === '1') {
      const committed = existsSync(CONTRACT) ? (JSON.parse(readFileSync(CONTRACT, 'utf8')) as Row[]) : [];
      const removed = unallowedRemovals(committed, rows, removalsAllowed(changesetTexts()));
      expect(
        removed,
        'parameters saved workflows may hold are gone; list each in a changeset releasing n8n-nodes-blockwire as major',
      ).toEqual([]);
      writeFileSync(
        CONTRACT,
        `${rows
          .map((row) => JSON.stringify(row))
          .join(',\n')
          .replace(/^/, '[\n')}\n]\n`,
      );
    }
    expect(existsSync(CONTRACT), 'test/contract.json is missing').toBe(true);
    expect(rows).toEqual(JSON.parse(readFileSync(CONTRACT, 'utf8')));
  });
});

describe('what may leave the contract', () => {
  const rows: Row[] = [
    ['tokenPrice', 'getEvm', 'address', 'string', ''],
    ['tokenPrice', 'getEvm', 'options.toBlock', 'number', ''],
  ];

  it('a renamed parameter is a removal', () => {
    const renamed: Row[] = [rows[0]!, ['tokenPrice', 'getEvm', 'options.blockTo', 'number', '']];
    expect(unallowedRemovals(rows, renamed, new Set())).toEqual(['tokenPrice.getEvm.options.toBlock']);
    expect(
      unallowedRemovals(rows, [...rows, ['entity', 'get', 'entityId', 'string', '']], new Set()),
    ).toEqual([]);
  });

  it('a major changeset of the node that names the parameter allows it; a minor one does not', () => {
    const major =
      '---\n"n8n-nodes-blockwire": major\n---\n\nRenamed `tokenPrice.getEvm.options.toBlock` to Block To.\n';
    const minor = major.replace('major', 'minor');
    expect([...removalsAllowed([major])]).toEqual(['tokenPrice.getEvm.options.toBlock']);
    expect([...removalsAllowed([minor])]).toEqual([]);
    expect(unallowedRemovals(rows, [rows[0]!], removalsAllowed([major]))).toEqual([]);
  });
});
