/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';

/**
 * The parameters saved workflows depend on, frozen (issue 21, point 14): one row per resource,
 * operation and parameter (a collection's options as `options.toBlock`), with its type and
 * default, as the node's generated description has them. Renaming an SDK field or changing a
 * default changes a row and fails here; a deliberate change rewrites the file with
 * `BLOCKWIRE_UPDATE_CONTRACT=1 npx vitest run packages/n8n-nodes-blockwire/test/contract.test.ts`
 * and, once a version is released, bumps the node's version the n8n way (`version: [1, 2]`).
 */
const CONTRACT = join(__dirname, 'contract.json');

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
